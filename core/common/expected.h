#pragma once

#include "core/common/error.h"

#include <cassert>
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

private:
    Error m_error;
    bool m_failed = false;
};

using Status = Expected<void>;

} // namespace meridian
