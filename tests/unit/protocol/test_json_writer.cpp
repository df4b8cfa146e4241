#include "mcpread/protocol/json_writer.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <utility>
#include <string>

using mcpread::protocol::append_json;
using nlohmann::json;

namespace {
std::string write(const json& v) {
  std::string out;
  append_json(v, out);
  return out;
}
std::string reference(const json& v) { return v.dump(-1, ' ', false, json::error_handler_t::replace); }
}  // namespace

TEST_CASE("json writer") {
  SUBCASE("every kind of value, as nlohmann writes it") {
    const json v = json::parse(R"({"a":[1,-2,3.5,1e300,true,false,null,"x"],"b":{"c":{}},"d":[],
                                   "e":18446744073709551615,"f":-9223372036854775808,"g":0.1})");
    CHECK(write(v) == reference(v));
  }
  SUBCASE("every ASCII character at every position of an 8-byte word") {
    for (int c = 0; c < 0x80; ++c) {
      for (std::size_t pos = 0; pos < 17; ++pos) {
        std::string s(17, 'a');
        s[pos] = static_cast<char>(c);
        const json v = s;
        CAPTURE(c);
        CAPTURE(pos);
        REQUIRE(write(v) == reference(v));
      }
    }
  }
  SUBCASE("valid multi-byte UTF-8 passes unchanged") {
    const json v = std::string("caf\xC3\xA9 \xE4\xB8\xAD\xE6\x96\x87 \xF0\x9F\x98\x80 \xEF\xBF\xBD tab\there");
    CHECK(write(v) == reference(v));
  }
  SUBCASE("invalid UTF-8 becomes U+FFFD, one per bad byte") {
    CHECK(write(std::string("a\xFF" "b")) == "\"a\xEF\xBF\xBD" "b\"");
    CHECK(write(std::string("\xC3")) == "\"\xEF\xBF\xBD\"");                    // truncated
    CHECK(write(std::string("\xC0\xAF")) == "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");    // overlong
    CHECK(write(std::string("\xED\xA0\x80")) == "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");  // surrogate
    CHECK(write(std::string("\xF4\x90\x80\x80")).find("\xF4") == std::string::npos);  // > U+10FFFF
  }
  SUBCASE("text whose escapes take up to 6 times its bytes, after text already written") {
    for (std::size_t len : {1u, 2u, 7u, 8u, 9u, 15u, 16u, 17u, 100u, 1000u, 100000u}) {
      CAPTURE(len);
      const json controls = std::string(len, '\x01');
      std::string out = "prefix ";
      append_json(controls, out);
      REQUIRE(out == "prefix " + reference(controls));
      CHECK(out.size() == 7 + 6 * len + 2);
      std::string invalid(len, '\xFF');  // each byte becomes U+FFFD, 3 bytes
      std::string expected = "\"";
      for (std::size_t i = 0; i < len; ++i) expected += "\xEF\xBF\xBD";
      CHECK(write(invalid) == expected + "\"");
      std::string mixed;  // escapes thinning out: plain text, then only escapes
      for (std::size_t i = 0; i < len; ++i) mixed += i < len / 2 ? 'a' : '\n';
      CHECK(write(mixed) == reference(mixed));
    }
  }
  SUBCASE("random valid text matches the reference") {
    std::mt19937 rng(42);
    const char* pieces[] = {"a", "bc", "\t", "\n", "\"", "\\", "\x01", "\x1f", "\xC3\xA9", "\xE2\x9C\x93", "\xF0\x9F\x98\x80", " ", "\x7f"};
    for (int round = 0; round < 200; ++round) {
      std::string s;
      // some long enough to cross the writer's 1 KiB windows several times
      const int len = static_cast<int>(rng() % (round < 20 ? 3000 : 200));
      for (int i = 0; i < len; ++i) s += pieces[rng() % std::size(pieces)];
      const json v = {{"k" + s, s}, {"list", json::array({s, round})}};
      REQUIRE(write(v) == reference(v));
    }
  }
  SUBCASE("binary values are written as their base64, padded (RFC 4648 test vectors)") {
    const std::pair<const char*, const char*> vectors[] = {
        {"", ""}, {"f", "Zg=="}, {"fo", "Zm8="}, {"foo", "Zm9v"}, {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"}};
    for (const auto& [raw, b64] : vectors) {
      const std::string text(raw);
      const json v{{"data", json::binary(json::binary_t::container_type(text.begin(), text.end()))}, {"n", 1}};
      CAPTURE(text);
      CHECK(write(v) == std::string(R"({"data":")") + b64 + R"(","n":1})");
      CHECK(mcpread::protocol::wire_size_hint(v["data"]) == std::string(b64).size() + 2);
    }
  }
  SUBCASE("every byte value survives the base64") {
    json::binary_t::container_type all;
    for (int i = 0; i < 256; ++i) all.push_back(static_cast<std::uint8_t>(i));
    const std::string out = write(json::binary(all));
    CHECK(out.size() == 2 + (256 + 2) / 3 * 4);
    CHECK(out.substr(0, 9) == "\"AAECAwQF");
    CHECK(out.substr(out.size() - 9) == "/P3+/w==\"");
  }
  SUBCASE("the size hint covers a message without escapes") {
    const json v = json::parse(R"({"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"abc"}],"isError":false}})");
    CHECK(mcpread::protocol::wire_size_hint(v) >= write(v).size());
  }
}
