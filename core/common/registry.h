#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace meridian {

/// An ordered set of algorithms keyed by their stable id. A plain object filled by explicit
/// registerBuiltin...() calls: no static initialisation, no singleton, so each test builds its own.
/// Not thread-safe for add(); once filled it may be read from any thread.
template <typename T>
class Registry {
public:
    /// Adds an algorithm; returns false (and drops it) when its id is already taken.
    bool add(std::unique_ptr<T> item)
    {
        if (!item || find(item->id()))
            return false;
        m_items.push_back(std::move(item));
        return true;
    }

    /// Returns the algorithm with this id, or nullptr.
    const T* find(std::string_view id) const
    {
        for (const auto& item : m_items) {
            if (item->id() == id)
                return item.get();
        }
        return nullptr;
    }

    /// Returns the ids in registration order.
    std::vector<std::string> ids() const
    {
        std::vector<std::string> out;
        for (const auto& item : m_items)
            out.emplace_back(item->id());
        return out;
    }

    /// Returns the algorithms in registration order.
    std::vector<const T*> all() const
    {
        std::vector<const T*> out;
        for (const auto& item : m_items)
            out.push_back(item.get());
        return out;
    }

    int size() const { return static_cast<int>(m_items.size()); }

private:
    std::vector<std::unique_ptr<T>> m_items;
};

} // namespace meridian
