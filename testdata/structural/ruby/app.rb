require 'json'
require_relative 'util'

module Shop
  class Cart
    attr_reader :items

    def initialize(items = [])
      @items = items
    end

    def add(item, qty = 1)
      raise ArgumentError, 'qty' if qty <= 0
      @items << { item: item, qty: qty }
      self
    end

    def total
      @items.sum { |i| i[:item].price * i[:qty] }
    end

    def to_json(*args)
      { items: @items }.to_json(*args)
    end
  end
end

cart = Shop::Cart.new
cart.add(:apple, 2).add(:pear)
puts cart.total
puts "done"
[1, 2, 3].each do |x|
  puts x * 2
end
values = [1, 2, 3].map { |v| v + 1 }
if values.empty?
  warn 'empty'
elsif values.size > 2
  puts values.inspect
end
