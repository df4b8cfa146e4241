// The large buffers kept for the next large answer (common/spare_buffers.hpp), and the messages
// that hand theirs back (protocol::serialize, protocol::recycle_buffers).
#include "mcpread/common/spare_buffers.hpp"
#include "mcpread/protocol/jsonrpc.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

using mcpread::common::spare::Slot;
namespace spare = mcpread::common::spare;

TEST_CASE("spare buffers: one large buffer kept, handed to the next large taker") {
  Slot<std::string> slot;
  slot.keep(true);
  bool reused = true;

  SUBCASE("nothing kept: a fresh buffer with the room asked for") {
    const std::string s = slot.take(2 << 20, &reused);
    CHECK_FALSE(reused);
    CHECK(s.empty());
    CHECK(s.capacity() >= (2u << 20));
  }
  SUBCASE("a buffer given back serves the next taker that fits in it, emptied, once") {
    std::string big(3 << 20, 'x');
    const char* data = big.data();
    slot.give_back(std::move(big));
    std::string again = slot.take(2 << 20, &reused);
    CHECK(reused);
    CHECK(again.data() == data);
    CHECK(again.empty());
    CHECK_FALSE((slot.take(2 << 20, &reused), reused));  // taken already
  }
  SUBCASE("a kept buffer too small is dropped, not added to a fresh one") {
    slot.give_back(std::string(2 << 20, 'x'));
    const std::string s = slot.take(4 << 20, &reused);
    CHECK_FALSE(reused);
    CHECK(slot.release() < spare::min_bytes);  // nothing kept any more
  }
  SUBCASE("small and huge buffers are not kept; of two, the larger stays") {
    slot.give_back(std::string(1000, 'x'));
    CHECK(slot.release() < spare::min_bytes);
    slot.give_back(std::string(spare::max_bytes + 1, 'x'));
    CHECK(slot.release() < spare::min_bytes);
    slot.give_back(std::string(2 << 20, 'x'));
    slot.give_back(std::string(3 << 20, 'x'));
    slot.give_back(std::string(2 << 20, 'x'));
    CHECK(slot.release() >= (3u << 20));
  }
  SUBCASE("a small buffer taken leaves the kept one alone (a ping's answer between two images)") {
    slot.give_back(std::string(2 << 20, 'x'));
    const std::string small = slot.take(100, &reused);
    CHECK_FALSE(reused);
    CHECK(slot.release() >= (2u << 20));
  }
  SUBCASE("with keeping off (no idle release to drop them), nothing is kept") {
    slot.give_back(std::string(2 << 20, 'x'));
    slot.keep(false);
    CHECK(slot.release() < spare::min_bytes);  // dropped when keeping went off
    slot.give_back(std::string(2 << 20, 'x'));
    CHECK_FALSE((slot.take(1 << 20, &reused), reused));
  }
  SUBCASE("the idle release drops the kept buffer") {
    slot.give_back(std::string(2 << 20, 'x'));
    CHECK(slot.release() >= (2u << 20));
    CHECK_FALSE((slot.take(1 << 20, &reused), reused));
  }
}

TEST_CASE("spare buffers: a serialized answer's binaries go back for the next read") {
  spare::keep_all(true);
  std::vector<std::uint8_t> bytes(2 << 20, 7);
  const auto* data = bytes.data();
  nlohmann::json answer = {{"content", {{{"type", "image"}, {"data", nlohmann::json::binary(std::move(bytes))}}}},
                           {"small", nlohmann::json::binary(std::vector<std::uint8_t>(10, 1))}};
  const std::string wire = mcpread::protocol::serialize(answer);
  CHECK(wire.size() > (2u << 20));
  mcpread::protocol::recycle_buffers(answer);
  CHECK(answer["content"][0]["data"].get_binary().empty());  // moved out
  CHECK(answer["small"].get_binary().size() == 10);            // too small to keep: left alone
  bool reused = false;
  const auto again = spare::bytes().take(1 << 20, &reused);
  CHECK(reused);
  CHECK(again.data() == data);
  spare::keep_all(false);
}
