#pragma once

#include "core/common/error.h"

#include <cassert>
#include <functional>
#include <type_traits>
#include <utility>
#include <variant>

namespace meridian {

/// Holds either a value of type T or an Error. The engine's way of reporting anything a user can cause.
/// Accessing the value of an Expected that holds an error is a programming error (asserted).
template <typename T>
class [[nodiscard]] Expected {
public:
    Expected(T value)
        : m_state(std::move(value))
    {}
    Expected(Error error)
        : m_state(std::move(error))
    {}

    bool hasValue() const { return std::holds_alternative<T>(m_state); }
    explicit operator bool() const { return hasValue(); }

    T& value() &
    {
        assert(hasValue());
        return std::get<T>(m_state);
    }
    const T& value() const&
    {
        assert(hasValue());
        return std::get<T>(m_state);
    }
    T&& value() &&
    {
        assert(hasValue());
        return std::get<T>(std::move(m_state));
    }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    const Error& error() const
    {
        assert(!hasValue());
        return std::get<Error>(m_state);
    }

    /// The next step on the value, `f(T) -> Expected<U>`; an error is passed on untouched (std::expected's
    /// and_then). Replaces `if (!x) return x.error(); return f(*x);`.
    template <typename F>
    auto and_then(F&& f) &&
    {
        using Next = std::invoke_result_t<F, T&&>;
        if (!hasValue())
            return Next(error());
        return std::invoke(std::forward<F>(f), std::move(*this).value());
    }
    template <typename F>
    auto and_then(F&& f) const&
    {
        using Next = std::invoke_result_t<F, const T&>;
        if (!hasValue())
            return Next(error());
        return std::invoke(std::forward<F>(f), value());
    }

    /// The value mapped by `f(T) -> U`, as Expected<U>; an error is passed on (std::expected's transform).
    template <typename F>
    auto transform(F&& f) &&
    {
        using U = std::remove_cvref_t<std::invoke_result_t<F, T&&>>;
        if (!hasValue())
            return Expected<U>(error());
        return Expected<U>(std::invoke(std::forward<F>(f), std::move(*this).value()));
    }

    /// The error mapped by `f(const Error&) -> Error` (to say where it happened), the value passed on.
    template <typename F>
    Expected transform_error(F&& f) &&
    {
        if (hasValue())
            return std::move(*this);
        return Expected(std::invoke(std::forward<F>(f), error()));
    }

private:
    std::variant<T, Error> m_state;
};

/// An outcome without a value: success, or an Error.
template <>
class [[nodiscard]] Expected<void> {
public:
    Expected() = default;
    Expected(Error error)
        : m_error(std::move(error))
        , m_failed(true)
    {}

    bool hasValue() const { return !m_failed; }
    explicit operator bool() const { return hasValue(); }
    const Error& error() const
    {
        assert(m_failed);
        return m_error;
    }

    /// The next step after a success, `f() -> Expected<U>`; an error is passed on untouched.
    template <typename F>
    auto and_then(F&& f) const
    {
        using Next = std::invoke_result_t<F>;
        if (!hasValue())
            return Next(error());
        return std::invoke(std::forward<F>(f));
    }

    /// The error mapped by `f(const Error&) -> Error`; a success passed on.
    template <typename F>
    Expected transform_error(F&& f) const
    {
        if (hasValue())
            return *this;
        return Expected(std::invoke(std::forward<F>(f), error()));
    }

private:
    Error m_error;
    bool m_failed = false;
};

using Status = Expected<void>;

} // namespace meridian
