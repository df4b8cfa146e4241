// libxml2 loaded once (libxml2_api.hpp): one table for the HTML conversion and the spreadsheets'
// streamed XML, every function in it bound.
#include "libxml2_api.hpp"

#include <doctest/doctest.h>

#include <string>

namespace libxml2 = mcpread::readers::libxml2;

namespace {

// Whether a function pointer is set (doctest cannot print one).
template <class Fn>
bool bound(Fn* fn) {
  return fn != nullptr;
}

}  // namespace

TEST_CASE("libxml2 api: one table, loaded once") {
  std::string error;
  const libxml2::Api* html = libxml2::api("reading HTML", &error);
  REQUIRE_MESSAGE(html != nullptr, error);
  CHECK(error.empty());
  SUBCASE("every function is bound") {
    CHECK(bound(html->html_new_context));
    CHECK(bound(html->html_read_memory));
    CHECK(bound(html->html_free_context));
    CHECK(bound(html->free_doc));
    CHECK(bound(html->create_push));
    CHECK(bound(html->use_options));
    CHECK(bound(html->parse_chunk));
    CHECK(bound(html->stop));
    CHECK(bound(html->free_context));
    CHECK(bound(html->set_generic_error));
    CHECK(bound(html->set_structured_error));
  }
  SUBCASE("every user gets the same table, and no error pointer is needed") {
    CHECK(libxml2::api("reading spreadsheets", &error) == html);
    CHECK(libxml2::api("reading spreadsheets", nullptr) == html);
  }
}
