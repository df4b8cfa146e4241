#pragma once
// The readers' caches (parts of zip packages, open PDFs, OCR'd pages) share this shape: values by
// a string key, bounded by a total cost and a number of entries, the least recently used dropped
// first, everything dropped by clear() (the server's idle-memory release). Thread-safe; values
// dropped are destroyed after the lock is let go, so that closing a large document holds up no
// other reader. Internal to the readers library.
#include <cstddef>
#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace mcpread::readers {

template <class Value>
class LruCache {
 public:
  LruCache(std::size_t max_cost, std::size_t max_entries = SIZE_MAX)
      : max_cost_(max_cost), max_entries_(max_entries) {}

  // The value kept under `key`, made the most recently used; nullopt when none.
  std::optional<Value> find(const std::string& key) {
    std::lock_guard lock(mutex_);
    const auto it = index_.find(key);
    if (it == index_.end()) return std::nullopt;
    entries_.splice(entries_.begin(), entries_, it->second);
    return it->second->value;
  }

  // Keeps `value` under `key` (replacing what was there), counted as `cost`; a value costing
  // more than the whole cache is not kept. Drops the least recently used until within bounds.
  void put(std::string key, Value value, std::size_t cost) {
    if (cost > max_cost_) return;
    std::vector<Value> dropped;  // destroyed after the lock
    {
      std::lock_guard lock(mutex_);
      if (const auto it = index_.find(key); it != index_.end()) {
        cost_ -= it->second->cost;
        dropped.push_back(std::move(it->second->value));
        entries_.erase(it->second);
        index_.erase(it);
      }
      entries_.push_front(Entry{key, std::move(value), cost});
      index_.emplace(std::move(key), entries_.begin());
      cost_ += cost;
      while (!entries_.empty() && (cost_ > max_cost_ || entries_.size() > max_entries_)) {
        Entry& last = entries_.back();
        cost_ -= last.cost;
        dropped.push_back(std::move(last.value));
        index_.erase(last.key);
        entries_.pop_back();
      }
    }
  }

  // Drops everything; returns the cost it held.
  std::size_t clear() {
    std::list<Entry> dropped;
    std::size_t cost = 0;
    {
      std::lock_guard lock(mutex_);
      dropped.swap(entries_);
      index_.clear();
      cost = std::exchange(cost_, 0);
    }
    return cost;
  }

  std::size_t cost() const {
    std::lock_guard lock(mutex_);
    return cost_;
  }
  std::size_t size() const {
    std::lock_guard lock(mutex_);
    return entries_.size();
  }

 private:
  struct Entry {
    std::string key;
    Value value;
    std::size_t cost = 0;
  };
  const std::size_t max_cost_;
  const std::size_t max_entries_;
  mutable std::mutex mutex_;
  std::list<Entry> entries_;  // the most recently used first
  std::unordered_map<std::string, typename std::list<Entry>::iterator> index_;
  std::size_t cost_ = 0;
};

}  // namespace mcpread::readers
