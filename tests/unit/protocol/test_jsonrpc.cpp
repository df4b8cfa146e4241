#include "mcpread/protocol/jsonrpc.hpp"

#include <doctest/doctest.h>

using namespace mcpread::protocol;

TEST_CASE("parse_json") {
  SUBCASE("valid JSON") { CHECK(std::get<json>(parse_json(R"({"a":1})"))["a"] == 1); }
  SUBCASE("invalid JSON is a parse error with a null id") {
    for (const char* text : {"{", "", "nul", "{\"a\":}", "\xff"}) {
      const auto r = parse_json(text);
      REQUIRE(std::holds_alternative<MessageError>(r));
      CHECK(std::get<MessageError>(r).code == error_code::parse_error);
      CHECK(std::get<MessageError>(r).id.is_null());
    }
  }
  SUBCASE("nesting deeper than 128 levels is refused before it can exhaust the stack") {
    const auto nested = [](std::size_t depth) {
      return R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":)" + std::string(depth - 2, '[') +
             "\"[[{\"" + std::string(depth - 2, ']') + "}}";
    };
    CHECK(std::holds_alternative<json>(parse_json(nested(128))));
    const auto r = parse_json(nested(129));
    REQUIRE(std::holds_alternative<MessageError>(r));
    CHECK(std::get<MessageError>(r).code == error_code::invalid_request);
    CHECK(std::holds_alternative<MessageError>(parse_json(std::string(1'000'000, '['))));
  }
}

TEST_CASE("to_message") {
  SUBCASE("request, notification, response") {
    auto r = to_message(json::parse(R"({"jsonrpc":"2.0","id":1,"method":"ping"})"));
    CHECK(std::get<Message>(r).kind == MessageKind::request);
    CHECK(std::get<Message>(r).params == json::object());
    r = to_message(json::parse(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"));
    CHECK(std::get<Message>(r).kind == MessageKind::notification);
    r = to_message(json::parse(R"({"jsonrpc":"2.0","id":"x","result":{}})"));
    CHECK(std::get<Message>(r).kind == MessageKind::response);
    r = to_message(json::parse(R"({"jsonrpc":"2.0","id":"x","error":{"code":1,"message":"m"}})"));
    CHECK(std::get<Message>(r).error["code"] == 1);
  }
  SUBCASE("errors keep a usable id") {
    auto r = to_message(json::parse(R"({"jsonrpc":"1.0","id":5,"method":"ping"})"));
    CHECK(std::get<MessageError>(r).id == 5);
    CHECK(std::get<MessageError>(r).code == error_code::invalid_request);
    r = to_message(json::parse(R"({"jsonrpc":"2.0","id":5,"method":"x","params":3})"));
    CHECK(std::get<MessageError>(r).code == error_code::invalid_params);
    CHECK(std::get<MessageError>(r).id == 5);
  }
  SUBCASE("bad ids are refused with a null id") {
    for (const char* text : {R"({"jsonrpc":"2.0","id":null,"method":"ping"})",
                             R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})",
                             R"({"jsonrpc":"2.0","id":[1],"method":"ping"})"}) {
      const auto r = to_message(json::parse(text));
      CHECK(std::get<MessageError>(r).id.is_null());
      CHECK(std::get<MessageError>(r).message == "Invalid Request: \"id\" must be a string or an integer");
    }
  }
  SUBCASE("neither method nor result/error") {
    const auto r = to_message(json::parse(R"({"jsonrpc":"2.0","id":1})"));
    CHECK(std::get<MessageError>(r).code == error_code::invalid_request);
    const auto both = to_message(json::parse(R"({"jsonrpc":"2.0","id":1,"result":{},"error":{}})"));
    CHECK(std::holds_alternative<MessageError>(both));
  }
}

TEST_CASE("building and serializing messages") {
  CHECK(serialize(make_result(1, json::object())) == R"({"id":1,"jsonrpc":"2.0","result":{}})");
  CHECK(serialize(make_error("a", -32601, "Method not found: x")) ==
        R"({"error":{"code":-32601,"message":"Method not found: x"},"id":"a","jsonrpc":"2.0"})");
  CHECK(serialize(make_notification("n", nullptr)) == R"({"jsonrpc":"2.0","method":"n"})");
  SUBCASE("invalid UTF-8 never escapes into the output") {
    const std::string s = serialize(json{{"t", std::string("a\xff" "b")}});
    CHECK(s == "{\"t\":\"a\xEF\xBF\xBD" "b\"}");
  }
  CHECK(id_key(1) != id_key("1"));
}
