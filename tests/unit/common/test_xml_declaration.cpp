// The encoding an XML declaration names (common/xml_declaration.hpp).
#include "mcpread/common/xml_declaration.hpp"

#include <doctest/doctest.h>

using mcpread::common::xml_declared_encoding;

TEST_CASE("xml declaration: the encoding it names") {
  SUBCASE("in double or single quotes, with or without blanks around '='") {
    CHECK(xml_declared_encoding("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>") == "ISO-8859-1");
    CHECK(xml_declared_encoding("<?xml version='1.0' encoding='utf-8'?>") == "utf-8");
    CHECK(xml_declared_encoding("<?xml version=\"1.0\"\n  encoding\t=\r\n \"UTF-8\" standalone=\"yes\"?>") == "UTF-8");
  }
  SUBCASE("no declaration, or one naming no encoding") {
    CHECK(xml_declared_encoding("<a encoding=\"x\"/>") == std::nullopt);
    CHECK(xml_declared_encoding(" <?xml version=\"1.0\" encoding=\"x\"?>") == std::nullopt);  // not at the start
    CHECK(xml_declared_encoding("<?xml version=\"1.0\"?><a encoding=\"x\"/>") == std::nullopt);  // past "?>"
    CHECK(xml_declared_encoding("") == std::nullopt);
  }
  SUBCASE("an encoding written otherwise than XML writes it is an empty name") {
    CHECK(xml_declared_encoding("<?xml version=\"1.0\" encoding?>") == "");
    CHECK(xml_declared_encoding("<?xml version=\"1.0\" encoding=latin1?>") == "");
    CHECK(xml_declared_encoding("<?xml version=\"1.0\" encoding=\"latin1?>") == "");
    CHECK(xml_declared_encoding("<?xml version=\"1.0\" encoding=\"latin1'?>") == "");
  }
  static_assert(xml_declared_encoding("<?xml encoding='a'?>") == "a");
}
