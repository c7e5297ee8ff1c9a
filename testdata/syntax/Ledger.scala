package shop.ledger

import scala.collection.mutable

/** An amount of money in cents. */
final case class Money(cents: Long) {
  def +(other: Money): Money = Money(cents + other.cents)
}

sealed trait Entry {
  def amount: Money
  def describe(): String = s"entry of $amount"
}

object Ledger {
  val Currency = "EUR"
  private var counter = 0

  def apply(): Ledger = new Ledger(mutable.Buffer.empty)

  private[ledger] def next(): Int = {
    counter += 1
    counter
  }
}

class Ledger(entries: mutable.Buffer[Entry]) extends Iterable[Entry] {
  type Filter = Entry => Boolean

  override def iterator: Iterator[Entry] = entries.iterator

  def total: Money =
    entries.foldLeft(Money(0))((acc, e) => acc + e.amount)

  protected def audit(): Unit = {
    println("audit")
  }

  private def hidden = 1
}

enum Color {
  case Red, Green
}
