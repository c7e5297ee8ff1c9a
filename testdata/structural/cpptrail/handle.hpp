// A handle that owns a resource, with trailing return types.
#pragma once
#include <memory>
#include <stdexcept>
#include <utility>

namespace store {

template <typename T>
class Handle {
  public:
    explicit Handle(std::unique_ptr<T> p) : ptr_(std::move(p)) {}

    auto get() noexcept -> T* { return ptr_.get(); }

    auto get_ptr() const noexcept -> decltype(std::declval<const Handle&>().ptr_.get()) {
        return ptr_.get();
    }

    template <typename U>
    operator U() const {
        if (!ptr_) {
            throw std::logic_error("empty handle");
        }
        return static_cast<U>(*ptr_);
    }

    auto release() -> std::unique_ptr<T> {
        if (ptr_) {
            on_release(ptr_.get());
        }
        return std::move(ptr_);
    }

  private:
    void on_release(T* p) { p->close(); }
    std::unique_ptr<T> ptr_;
};

template <typename T>
auto make_handle(T value) -> Handle<T> {
    return Handle<T>(std::make_unique<T>(std::move(value)));
}

}  // namespace store
