#include "mcpread/protocol/versions.hpp"

#include <doctest/doctest.h>

using namespace mcpread::protocol;

TEST_CASE("version negotiation") {
  CHECK(latest_version() == "2025-11-25");
  for (auto v : supported_versions) CHECK(negotiate_version(v) == v);
  CHECK(negotiate_version("2024-10-07") == "2025-11-25");
  CHECK(negotiate_version("") == "2025-11-25");
  CHECK_FALSE(is_supported_version("2026-07-28"));
}

TEST_CASE("features by version") {
  CHECK_FALSE(features_of("2024-11-05").batches);
  CHECK(features_of("2025-03-26").batches);
  CHECK_FALSE(features_of("2025-06-18").batches);
  CHECK_FALSE(features_of("2024-11-05").audio_content);
  CHECK(features_of("2025-03-26").audio_content);
  CHECK(features_of("2025-03-26").tool_annotations);
  CHECK_FALSE(features_of("2025-03-26").titles);
  CHECK(features_of("2025-06-18").titles);
  CHECK(features_of("2025-06-18").structured_content);
  CHECK(features_of("2025-11-25").resource_links);
}
