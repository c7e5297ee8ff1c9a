<?php

declare(strict_types=1);

namespace App\Mail;

use App\Contracts\Transport;

const DEFAULT_FROM = 'noreply@example.com';

/**
 * Formats an address.
 */
function format_address(string $name, string $email): string
{
    return sprintf('%s <%s>', $name, $email);
}

interface Sender
{
    public function send(Message $m): bool;
}

trait Retries
{
    protected int $attempts = 3;

    private function retry(callable $f)
    {
        return $f();
    }
}

enum Priority: int
{
    case Low = 0;
    case High = 1;

    public function label(): string
    {
        return ucfirst(strtolower($this->name));
    }
}

#[Service]
final class Mailer implements Sender
{
    use Retries;

    public const VERSION = '2.1';
    private Transport $transport;
    public ?string $from = null;

    public function __construct(Transport $transport)
    {
        $this->transport = $transport;
    }

    public function send(Message $m): bool
    {
        return $this->retry(fn () => $this->transport->deliver($m));
    }

    protected function log(string $line): void {}

    function legacy() { return true; }

    public static function create(): self
    {
        return new self(new NullTransport());
    }
}
