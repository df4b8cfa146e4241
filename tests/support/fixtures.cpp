#include "fixtures.hpp"

#include "recorded_encodings.hpp"

#if defined(_WIN32)
#include "windows_encode.hpp"

#include <io.h>

#include <random>
#else
#include <iconv.h>
#endif

#include <fcntl.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>

namespace mcpread::test {

#if defined(_WIN32)
// No mkdtemp: a random name under the user's temporary folder, taken only if it did not exist.
TempDir::TempDir() {
  std::random_device seed;
  const auto base = std::filesystem::temp_directory_path();
  for (int attempt = 0; attempt < 100; ++attempt) {
    const auto dir = base / ("mcpread-test-" + std::to_string(seed()));
    if (std::filesystem::create_directory(dir)) {
      path_ = std::filesystem::canonical(dir);
      return;
    }
  }
  throw std::runtime_error("no fresh test folder under " + base.string());
}
#else
TempDir::TempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string templ = std::string(base && *base ? base : "/tmp") + "/mcpread-test-XXXXXX";
  if (mkdtemp(templ.data()) == nullptr) throw std::runtime_error("mkdtemp failed for " + templ);
  path_ = std::filesystem::canonical(templ);
}
#endif

TempDir::~TempDir() {
  std::error_code ec;
  // Restore permissions that tests may have removed so that everything can be deleted.
  for (auto it = std::filesystem::recursive_directory_iterator(
           path_, std::filesystem::directory_options::skip_permission_denied, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_directory(ec) && !it->is_symlink(ec))
      std::filesystem::permissions(it->path(), std::filesystem::perms::owner_all,
                                   std::filesystem::perm_options::add, ec);
  }
  std::filesystem::permissions(path_, std::filesystem::perms::owner_all,
                               std::filesystem::perm_options::add, ec);
  std::filesystem::remove_all(path_, ec);
}

std::filesystem::path TempDir::write(const std::string& relative, std::string_view content) const {
  auto full = path_ / relative;
  std::filesystem::create_directories(full.parent_path());
  std::ofstream out(full, std::ios::binary | std::ios::trunc);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  if (!out) throw std::runtime_error("cannot write fixture " + full.string());
  return full;
}

int open_read_only(const std::filesystem::path& path) {
#if defined(_WIN32)
  return ::_wopen(path.c_str(), _O_RDONLY | _O_BINARY | _O_NOINHERIT);
#else
  return ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
#endif
}

std::string wav_file(std::uint32_t samples) {
  auto le = [](std::uint32_t v, int bytes) {
    std::string s;
    for (int i = 0; i < bytes; ++i) s.push_back(static_cast<char>(v >> (8 * i)));
    return s;
  };
  return "RIFF" + le(36 + samples, 4) + "WAVE" + "fmt " + le(16, 4) + le(1, 2) + le(1, 2) +
         le(8000, 4) + le(8000, 4) + le(1, 2) + le(8, 2) + "data" + le(samples, 4) +
         std::string(samples, '\x80');
}

std::string iconv_encode(const std::string& utf8_text, const std::string& charset, bool skip_unencodable) {
#if defined(_WIN32)
  if (auto recorded = recorded_encoding(utf8_text, charset, skip_unencodable)) return std::move(*recorded);
  return windows_encode(utf8_text, charset, skip_unencodable);
#else
  iconv_t cd = iconv_open((charset + (skip_unencodable ? "//IGNORE" : "")).c_str(), "UTF-8");
  if (cd == reinterpret_cast<iconv_t>(-1)) throw std::runtime_error("iconv_open failed for " + charset);
  std::string in = utf8_text;
  std::string out(in.size() * 8 + 16, '\0');
  char* src = in.data();
  std::size_t left = in.size();
  char* dst = out.data();
  std::size_t room = out.size();
  const std::size_t r = iconv(cd, &src, &left, &dst, &room);
  iconv(cd, nullptr, nullptr, &dst, &room);  // back to the initial shift state
  iconv_close(cd);
  if (r == static_cast<std::size_t>(-1) && !skip_unencodable) throw std::runtime_error("iconv failed for " + charset);
  out.resize(out.size() - room);
  // scripts/windows/record-encodings.sh: each encoding made, for the Windows builds' recording.
  if (const char* record = std::getenv("MCPREAD_RECORD_ENCODINGS"); record != nullptr && *record != '\0') {
    std::ofstream log(record, std::ios::app | std::ios::binary);
    log << charset << '\t' << (skip_unencodable ? 1 : 0) << '\t' << to_hex(utf8_text) << '\t' << to_hex(out) << '\n';
  }
  return out;
#endif
}

std::string file_uri(const std::filesystem::path& path) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string p = path.generic_string();  // "/" between names on every system
  std::string uri = "file://";
  if (p.size() >= 2 && p[1] == ':') {  // C:/Users/... after "file://" takes a third "/", colon kept
    uri += "/" + p.substr(0, 2);
    p.erase(0, 2);
  }
  for (const char ch : p) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) != 0 || ch == '/' || ch == '-' || ch == '.' || ch == '_' || ch == '~') {
      uri += ch;
    } else {
      uri += '%';
      uri += hex[c >> 4];
      uri += hex[c & 15];
    }
  }
  return uri;
}

std::string file_uri(const std::filesystem::path& dir, std::string_view encoded_name) {
  return file_uri(dir) + "/" + std::string(encoded_name);
}

std::string pseudo_random(std::size_t n, std::uint32_t seed) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    out += static_cast<char>(seed >> 24);
  }
  return out;
}

}  // namespace mcpread::test
