#include "file_io.hpp"
#include "mcpread/readers/utf8.hpp"
#include "office/zip_head.hpp"
#include "slides/readers.hpp"

#include <algorithm>

namespace mcpread::readers::sections {
namespace {

constexpr std::string_view kOle2 = "\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1";

std::string_view article(Format f) {
  switch (f) {
    case Format::pptx: return "a PowerPoint presentation";
    case Format::odp: return "an OpenDocument presentation";
    case Format::epub: return "an EPUB book";
  }
  return "a document";
}

// An OLE2 compound file named like a presentation: Office's password-protected documents are
// such files (an EncryptionInfo stream beside the encrypted package), and so are legacy .ppt files.
std::string compound_file_message(std::string_view path, std::string_view bytes, Format f) {
  if (zip_head::has_encryption_info(bytes))
    return std::string(path) + " is a password-protected (encrypted) presentation: its text cannot be read "
                               "without the password.";
  return std::string(path) + " is an OLE2 compound file (a legacy PowerPoint .ppt?), not " +
         std::string(article(f)) + "; it cannot be read as one.";
}

ReadOutcome read_archive(std::unique_ptr<office::ZipArchive> zip, const std::string& zip_error, const std::string& path,
                         Format format, const Options& options, const CancelToken& cancel, nlohmann::json meta) {
  const std::string cannot = path + " cannot be read as " + std::string(article(format)) + ": ";
  if (zip == nullptr) return ReadOutcome::error(cannot + zip_error + ".", std::move(meta));
  Deck deck;
  std::string error;
  const bool ok = format == Format::pptx  ? read_pptx(*zip, &deck, &error)
                  : format == Format::odp ? read_odp(*zip, &deck, &error)
                                          : read_epub(*zip, &deck, &error);
  if (cancel.cancelled()) return ReadOutcome::stopped();
  if (!ok) return ReadOutcome::error(cannot + error + ".", std::move(meta));
  return render(deck, *zip, path, options, cancel, std::move(meta));
}

}  // namespace

ReadOutcome read_bytes(std::string_view bytes, std::string_view name, Format format, const Options& options,
                       const CancelToken& cancel) {
  const std::string path = utf8::sanitized(name);
  nlohmann::json meta = {{"path", path}, {"size", bytes.size()}};
  if (bytes.starts_with(kOle2)) return ReadOutcome::error(compound_file_message(path, bytes, format), std::move(meta));
  std::string error;
  auto zip = office::ZipArchive::open_memory(bytes, options.zip, &error);
  return read_archive(std::move(zip), error, path, format, options, cancel, std::move(meta));
}

ReadOutcome read_file(const OpenedFile& file, Format format, const Options& options, const CancelToken& cancel) {
  const std::string path = utf8::sanitized(file.path.string());
  const auto size = static_cast<std::uint64_t>(file.st.st_size);
  nlohmann::json meta = {{"path", path}, {"size", size}};
  char magic[8] = {};
  const auto got = file_io::pread_full(file.fd.get(), magic, sizeof magic, 0);
  if (got && *got == sizeof magic && std::string_view(magic, 8) == kOle2) {
    // The stream directory may lie anywhere: look through the first 8 MiB for its name.
    std::string bytes(static_cast<std::size_t>(std::min<std::uint64_t>(size, 8ull << 20)), '\0');
    bytes.resize(file_io::pread_full(file.fd.get(), bytes.data(), bytes.size(), 0).value_or(0));
    return ReadOutcome::error(compound_file_message(path, bytes, format), std::move(meta));
  }
  std::string error;
  auto zip = office::ZipArchive::open_fd(file.fd.get(), options.zip, &error);
  return read_archive(std::move(zip), error, path, format, options, cancel, std::move(meta));
}

}  // namespace mcpread::readers::sections
