<?php

declare(strict_types=1);

namespace App\Cache;

use App\Cache\Exception\InvalidKeyException;
use App\Clock\SystemClock as Clock;
use function array_key_exists;
use function sprintf;

/**
 * Keeps session values in memory and in a backing store.
 */
final class SessionCache implements CacheInterface
{
    private array $values = [];
    private ?StoreInterface $store;

    public function __construct(?StoreInterface $store = null)
    {
        $this->store = $store;
    }

    public function get(string $key, $default = null)
    {
        $this->checkKey($key);
        if (isset($this->values[$key])) {
            return $this->values[$key];
        }
        if ($this->store === null) {
            return $default;
        }
        $value = $this->store->fetch($key);
        if ($value === false) {
            return $default;
        }
        $this->values[$key] = $value;

        return $value;
    }

    public function set(string $key, $value, int $ttl = 0): bool
    {
        $this->checkKey($key);
        $this->values[$key] = $value;
        if ($this->store !== null) {
            return $this->store->save($key, \serialize($value), $ttl);
        }

        return true;
    }

    public function delete(string $key): bool
    {
        unset($this->values[$key]);

        return $this->store === null || $this->store->delete($key);
    }

    public function has(string $key): bool
    {
        return array_key_exists($key, $this->values) || ($this->store !== null && $this->store->contains($key));
    }

    public function find(string $prefix): ?array
    {
        $found = [];
        foreach ($this->values as $key => $value) {
            if (\strncmp($key, $prefix, \strlen($prefix)) === 0) {
                $found[$key] = $value;
            }
        }
        if (!$found) {
            return null;
        }

        return $found;
    }

    private function checkKey(string $key): void
    {
        if ($key === '' || \strpbrk($key, '{}()/\@:') !== false) {
            throw new InvalidKeyException(sprintf('Invalid cache key "%s"', $key));
        }
        if (isset($key[250])) {
            throw new InvalidKeyException('Cache key too long', 250);
        }
    }

    public function remember(string $key, object $loader): object
    {
        return $this->get($key) ?? $loader->load($key);
    }

    public static function fromConfig(array $config): self
    {
        $store = isset($config['store']) ? StoreFactory::create($config['store']) : null;
        \ob_start();
        echo self::class;
        \ob_get_clean();

        return new self($store);
    }
}
