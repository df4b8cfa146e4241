// A task is its creator's: another owner (another OAuth identity) neither sees, answers nor
// cancels it; without owners (no OAuth) every caller is the same one.
#include "tasks.hpp"

#include <doctest/doctest.h>

using namespace mcpread::protocol;

TEST_CASE("tasks: a task is visible to and cancellable by its owner only") {
  TaskStore store;
  auto cancelled = std::make_shared<std::atomic<bool>>(false);
  const auto created = store.create(cancelled, "reading", json::object(), "https://as alice");
  REQUIRE(created);
  const std::string id = (*created)["taskId"].get<std::string>();
  CHECK_FALSE(store.get(id, "https://as bob"));
  CHECK_FALSE(store.get(id));
  CHECK_FALSE(store.update(id, json::object(), "https://as bob"));
  CHECK_FALSE(store.cancel(id, "https://as bob"));
  CHECK_FALSE(cancelled->load());
  REQUIRE(store.get(id, "https://as alice"));
  CHECK((*store.get(id, "https://as alice"))["status"] == "working");
  CHECK(store.cancel(id, "https://as alice"));
  CHECK(cancelled->load());
  CHECK((*store.get(id, "https://as alice"))["status"] == "cancelled");

  const auto open = store.create(nullptr, "", json::object());
  REQUIRE(open);
  CHECK(store.get((*open)["taskId"].get<std::string>()));
  CHECK_FALSE(store.get((*open)["taskId"].get<std::string>(), "https://as alice"));
}
