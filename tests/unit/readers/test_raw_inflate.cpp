// A zip entry's deflate stream inflated in one call (package/raw_inflate.hpp): exactly the
// declared size, its CRC checked, and a sentence for each way it can be wrong.
#include "package/raw_inflate.hpp"

#include <doctest/doctest.h>
#include <libdeflate.h>

#include <memory>
#include <string>

using mcpread::readers::package::inflate_raw;

namespace {

std::string deflate(const std::string& data) {
  std::unique_ptr<libdeflate_compressor, decltype(&libdeflate_free_compressor)> c(libdeflate_alloc_compressor(6),
                                                                                   libdeflate_free_compressor);
  std::string out(libdeflate_deflate_compress_bound(c.get(), data.size()), '\0');
  out.resize(libdeflate_deflate_compress(c.get(), data.data(), data.size(), out.data(), out.size()));
  return out;
}

std::uint32_t crc_of(const std::string& data) {
  return static_cast<std::uint32_t>(libdeflate_crc32(0, data.data(), data.size()));
}

}  // namespace

TEST_CASE("raw inflate: a zip entry's deflate stream in one call") {
  std::string data;
  for (int i = 0; i < 20000; ++i) data += "<row r=\"" + std::to_string(i) + "\"><c><v>" + std::to_string(i * 7) + "</v></c></row>";
  const std::string packed = deflate(data);
  std::string why;

  SUBCASE("the declared size and CRC: the bytes") {
    const auto out = inflate_raw(packed, data.size(), crc_of(data), &why);
    REQUIRE(out);
    CHECK(*out == data);
  }
  SUBCASE("more data than declared is never inflated past the declared size") {
    CHECK_FALSE(inflate_raw(packed, data.size() - 1, crc_of(data), &why));
    CHECK(why == "it unpacks to more than it declares");
  }
  SUBCASE("less data than declared") {
    CHECK_FALSE(inflate_raw(packed, data.size() + 1, crc_of(data), &why));
    CHECK(why == "it unpacks to less than it declares");
  }
  SUBCASE("a CRC that does not match") {
    CHECK_FALSE(inflate_raw(packed, data.size(), crc_of(data) ^ 1u, &why));
    CHECK(why == "it fails its CRC check");
  }
  SUBCASE("bytes that are no deflate stream") {
    CHECK_FALSE(inflate_raw(std::string(64, '\xFF'), data.size(), crc_of(data), &why));
    CHECK(why == "its compressed data is invalid");
  }
}
