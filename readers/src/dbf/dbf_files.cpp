// The files that go with a dBASE table: its memo file (.dbt, or .fpt for FoxPro) and the .cpg
// file naming its charset, found beside it by its name with either case of extension.
#include "dbf/dbf_table.hpp"

#include "file_io.hpp"
#include "memory_file.hpp"
#include "mcpread/readers/utf8.hpp"

#include <filesystem>

#if !defined(_WIN32)
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace mcpread::readers::dbf {

namespace {

#if !defined(_WIN32)
constexpr std::uint64_t kMaxCpgBytes = 256;

// A regular file beside the table, with `stem` and one of the extensions. The table's directory
// lies inside the roots (its path is resolved); a symbolic link is not followed, as it could lead
// out of them.
std::optional<OpenedFile> beside(const std::filesystem::path& table, std::initializer_list<const char*> extensions) {
  for (const char* ext : extensions) {
    std::filesystem::path p = table;
    p.replace_extension(ext);
    if (p == table) continue;
    const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) continue;
    OpenedFile f;
    f.fd = UniqueFd(fd);
    if (::fstat(fd, &f.st) != 0 || !S_ISREG(f.st.st_mode)) continue;
    f.path = p;
    return f;
  }
  return std::nullopt;
}
#endif

}  // namespace

ReadOutcome read_dbf_file(const OpenedFile& file, const sheets::SheetOptions& options, const CancelToken& cancel) {
  Companions companions;
#if defined(_WIN32)
  companions.looked = false;  // only the table is read there: memo text is said to be unread
#else
  companions.memo = beside(file.path, {".dbt", ".DBT", ".fpt", ".FPT"});
  if (auto cpg = beside(file.path, {".cpg", ".CPG"})) {
    std::string text(kMaxCpgBytes, '\0');
    if (const auto got = file_io::pread_full(cpg->fd.get(), text.data(), text.size(), 0)) {
      text.resize(*got);
      companions.cpg = std::move(text);
    }
  }
#endif
  return read_dbf(file, std::move(companions), options, cancel);
}

ReadOutcome read_dbf_bytes(std::string_view bytes, std::string_view name, std::string_view memo, std::string_view cpg,
                           const sheets::SheetOptions& options, const CancelToken& cancel) {
  std::string error;
  const std::string path = utf8::sanitized(name);
  std::optional<OpenedFile> table = memory_file(std::string(bytes), path, &error);
  if (!table) return ReadOutcome::error(path + " cannot be read: " + error + ".");
  Companions companions;
  companions.cpg = std::string(cpg);
  if (!memo.empty()) {
    std::filesystem::path memo_path(path);
    // Named as the table's version expects it: the name tells the memo's layout.
    const auto version = bytes.empty() ? 0 : static_cast<unsigned char>(bytes[0]);
    const bool fox = version == 0x30 || version == 0x31 || version == 0x32 || version == 0xF5 || version == 0xFB;
    memo_path.replace_extension(fox ? ".fpt" : ".dbt");
    companions.memo = memory_file(std::string(memo), memo_path.string(), &error);
    if (!companions.memo) return ReadOutcome::error(path + " cannot be read: " + error + ".");
  }
  return read_dbf(*table, std::move(companions), options, cancel);
}

}  // namespace mcpread::readers::dbf
