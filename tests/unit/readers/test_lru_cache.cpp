// The readers' bounded cache (readers/src/lru_cache.hpp), which the parts, open-PDF and OCR
// caches are made of.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "lru_cache.hpp"

using mcpread::readers::LruCache;

TEST_CASE("lru cache: least recently used dropped first, by cost and by count") {
  SUBCASE("found values become the most recently used") {
    LruCache<int> cache(30);
    cache.put("a", 1, 10);
    cache.put("b", 2, 10);
    cache.put("c", 3, 10);
    CHECK(cache.find("a") == 1);  // a is now the newest: b goes first
    cache.put("d", 4, 10);
    CHECK(cache.find("b") == std::nullopt);
    CHECK(cache.find("a") == 1);
    CHECK(cache.find("c") == 3);
    CHECK(cache.cost() == 30);
  }
  SUBCASE("a count bound as well as a cost bound") {
    LruCache<int> cache(1000, 2);
    cache.put("a", 1, 1);
    cache.put("b", 2, 1);
    cache.put("c", 3, 1);
    CHECK(cache.size() == 2);
    CHECK(cache.find("a") == std::nullopt);
  }
  SUBCASE("the same key replaces its value and its cost") {
    LruCache<std::string> cache(100);
    cache.put("k", "old", 60);
    cache.put("k", "new", 30);
    CHECK(cache.find("k") == "new");
    CHECK(cache.cost() == 30);
    CHECK(cache.size() == 1);
  }
  SUBCASE("a value costing more than the whole cache is not kept, and drops nothing") {
    LruCache<int> cache(50);
    cache.put("a", 1, 20);
    cache.put("huge", 2, 51);
    CHECK(cache.find("huge") == std::nullopt);
    CHECK(cache.find("a") == 1);
  }
  SUBCASE("clear drops everything and says what it held") {
    LruCache<int> cache(100);
    cache.put("a", 1, 7);
    cache.put("b", 2, 5);
    CHECK(cache.clear() == 12);
    CHECK(cache.size() == 0);
    CHECK(cache.cost() == 0);
    CHECK(cache.find("a") == std::nullopt);
  }
}

namespace {
// A value whose destruction asks the cache something: it would deadlock if values were
// destroyed while the cache's lock is held.
struct AsksOnDestruction {
  LruCache<std::shared_ptr<AsksOnDestruction>>* cache = nullptr;
  std::size_t* seen = nullptr;
  ~AsksOnDestruction() {
    if (cache != nullptr) *seen = cache->size();
  }
};
}  // namespace

TEST_CASE("lru cache: dropped values are destroyed after the lock is let go") {
  LruCache<std::shared_ptr<AsksOnDestruction>> cache(10);
  std::size_t seen = 99;
  auto value = std::make_shared<AsksOnDestruction>();
  value->cache = &cache;
  value->seen = &seen;
  cache.put("first", std::move(value), 10);
  cache.put("second", std::make_shared<AsksOnDestruction>(), 10);  // drops "first"
  CHECK(seen == 1);
  cache.put("third", std::make_shared<AsksOnDestruction>(), 10);
  CHECK(cache.clear() == 10);
}
