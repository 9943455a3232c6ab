#pragma once

#include <map>
#include <mutex>
#include <string>

namespace podscope {

// Bundled resources never change while the program runs, so each is parsed once. Thread-safe;
// errors (unknown names) are not cached and are thrown again on the next call.
template <typename T, typename Load> const T& cachedResource(const std::string& name, Load load) {
    static std::mutex mutex;
    static std::map<std::string, T> cache;
    std::lock_guard lock(mutex);
    auto it = cache.find(name);
    if (it == cache.end()) {
        it = cache.emplace(name, load(name)).first;
    }
    return it->second;
}

} // namespace podscope
