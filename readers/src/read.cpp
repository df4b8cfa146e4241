#include "mcpread/readers/read.hpp"

#include "file_io.hpp"
#include "human_size.hpp"
#include "mcpread/readers/audio.hpp"
#include "mcpread/readers/image.hpp"
#include "mcpread/readers/listing.hpp"
#include "mcpread/readers/notebook.hpp"
#include "mcpread/readers/pdf.hpp"

#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace mcpread::readers {
namespace {

constexpr std::size_t head_bytes = 64 * 1024;

// The first head_bytes of the file, for classification; false (errno text in *error) on error.
bool read_head(int fd, std::string* head, std::string* error) {
  const auto buffer = std::make_unique_for_overwrite<char[]>(head_bytes);
  const auto got = file_io::pread_full(fd, buffer.get(), head_bytes, 0);
  if (!got) {
    *error = std::strerror(errno);
    return false;
  }
  head->assign(buffer.get(), *got);
  return true;
}

std::string article(FileKind kind) {
  switch (kind) {
    case FileKind::image: return "an image";
    case FileKind::pdf: return "a PDF document";
    case FileKind::notebook: return "a Jupyter notebook";
    case FileKind::audio: return "an audio file";
    case FileKind::text: return "a text file";
    case FileKind::binary: return "a binary file";
    case FileKind::json: return "a JSON file";
  }
  return "a file";
}

std::string what_it_is(const Classification& c) {
  if (!c.description.empty()) return c.description + " (" + c.mime + ")";
  return c.mime;
}

ReadOutcome with_type_meta(ReadOutcome outcome, const OpenedFile& file, const Classification& c,
                           FileKind kind) {
  outcome.meta["path"] = file.path.string();
  outcome.meta["mime"] = c.mime;
  outcome.meta["kind"] = std::string(to_string(kind));
  outcome.meta["size"] = static_cast<std::uint64_t>(file.st.st_size);
  return outcome;
}

// A column past 1 asks for part of each line, which only text has: refused rather than ignored,
// so that a caller never takes a whole answer for the part it asked for.
ReadOutcome column_refused(const std::string& path, const std::string& what, const char* instead) {
  return ReadOutcome::error("The \"column\" argument applies to lines of text, and " + path +
                            " is " + what + ". Call read without column" + instead + ".");
}

// The refusal of a file no reader takes, with a hint that fits what it is: audio and video say
// what the tool sends and how to get there; only data libmagic cannot name may be text in an
// unusual charset, so only it gets the encoding hint.
std::string binary_refusal(const OpenedFile& file, const Classification& c, const std::string& size) {
  const std::string path = file.path.string();
  if (c.mime.starts_with("audio/"))
    return path + " is audio in a format the read tool does not send (" + what_it_is(c) + ", " + size +
           "): it sends WAV, MP3, FLAC, Ogg, M4A and AAC. Convert the file to one of these (for example "
           "with ffmpeg or sox) and read that file.";
  if (c.mime.starts_with("video/"))
    return path + " is a video (" + what_it_is(c) + ", " + size +
           "), which the read tool does not read. Extract its audio or frames (for example with ffmpeg) "
           "and read those files.";
  std::string m = path + " is a binary file (" + what_it_is(c) + ", " + size + ") and cannot be shown as text.";
  if (c.mime == "application/octet-stream")
    m += " If it is text in an unusual charset, call read with file_type=\"text\" and an encoding such as "
         "encoding=\"windows-1252\".";
  return m;
}

std::size_t media_text_cap(const ReadLimits& limits) {
  return limits.media_max_output_bytes != 0
             ? std::min(limits.media_max_output_bytes, limits.text.max_output_bytes)
             : limits.text.max_output_bytes;
}

}  // namespace

ReadOutcome read_file(const Roots& roots, const ReadRequest& request, const ReadLimits& limits,
                      const CancelToken& cancel) {
  if (roots.empty())
    return ReadOutcome::error("No directory may be read: the client's roots leave no allowed "
                              "directory. Add a root that contains the file.");
  AccessResult access = open_in_roots(roots, request.file_path);
  if (auto* denied = std::get_if<AccessError>(&access)) return ReadOutcome::error(denied->message);
  const bool column = request.column.value_or(1) > 1;
  if (auto* dir = std::get_if<DirectoryTarget>(&access)) {
    if (column)
      return column_refused(dir->path.string(), "a directory",
                            "; offset and limit page through a listing");
    // A page of the listing: `limit` entries (at most the configured page) from `offset`.
    const std::size_t page = request.limit
                                 ? static_cast<std::size_t>(std::min<std::uint64_t>(
                                       *request.limit, limits.max_directory_entries))
                                 : limits.max_directory_entries;
    return list_directory(dir->path, page, request.offset.value_or(1),
                          limits.text.max_output_bytes);
  }
  const auto& file = std::get<OpenedFile>(access);
  if (cancel.cancelled()) return ReadOutcome::stopped();

  std::string head, error;
  if (!read_head(file.fd.get(), &head, &error))
    return ReadOutcome::error("Cannot read " + file.path.string() + ": " + error + ".");
  const auto bytes = std::span(reinterpret_cast<const unsigned char*>(head.data()), head.size());
  const Classification c =
      classify(file.path.filename().string(), bytes, static_cast<std::uint64_t>(file.st.st_size));
  // An `encoding` says the file is text: a file classified as binary is decoded with it.
  const FileKind kind = request.forced_kind.value_or(
      c.kind == FileKind::binary && !request.encoding.empty() ? FileKind::text : c.kind);
  const std::string size = human_size(static_cast<std::uint64_t>(file.st.st_size));

  if (!request.forced_kind && c.extension_kind) {
    return with_type_meta(
        ReadOutcome::error(file.path.string() + " is named like " + article(*c.extension_kind) +
                           " but is not one: its content is " + article(c.kind) + ", " +
                           what_it_is(c) + ", " + size + "." +
                           (c.kind == FileKind::text ? " Call read with file_type=\"text\" to read it as text." : "")),
        file, c, c.kind);
  }

  // Errors of the kind-specific readers also carry what the file is.
  // Two returns, not `?:`: its arms share one type, so the plain `outcome` arm was a copy of the
  // whole answer (every image's base64, every PDF's blob) where a return moves it.
  auto typed = [&](ReadOutcome outcome, FileKind k) -> ReadOutcome {
    if (outcome.is_error && !outcome.cancelled) return with_type_meta(std::move(outcome), file, c, k);
    return outcome;
  };
  // A PDF keeps its own reader when asked for text (its text only) or images (rendered pages).
  const bool pdf = kind == FileKind::pdf ||
                   (c.kind == FileKind::pdf && (kind == FileKind::text || kind == FileKind::image));
  if (column && (pdf || (kind != FileKind::text && kind != FileKind::json)))
    return typed(column_refused(file.path.string(), article(pdf ? FileKind::pdf : kind),
                                " (or with file_type=\"text\" to read it as text)"),
                 kind);
  if (pdf) {
    PdfOptions options;
    options.pages = request.pages;
    options.mode = kind == FileKind::text    ? PdfMode::text
                   : kind == FileKind::image ? PdfMode::images
                                             : limits.pdf_default_mode;
    options.max_pages = limits.pdf_max_pages;
    options.whole_document_pages = limits.pdf_max_pages;
    options.max_output_bytes = media_text_cap(limits);
    options.max_page_images = limits.pdf_max_page_images;
    options.max_blob_base64_bytes = limits.pdf_max_blob_bytes;
    options.render_dpi = static_cast<double>(limits.pdf_render_dpi);
    options.image = limits.image;
    options.progress = request.progress;
    return typed(read_pdf(file, options, cancel), FileKind::pdf);
  }
  switch (kind) {
    case FileKind::text:
    case FileKind::json: {
      TextOptions options = limits.text;
      if (request.offset) options.offset = *request.offset;
      if (request.limit) options.limit = *request.limit;
      if (!request.encoding.empty()) options.encoding = request.encoding;
      if (request.column) options.column = *request.column;
      options.json = kind == FileKind::json;
      ReadOutcome outcome = read_text(file, options, cancel);
      outcome.meta["mime"] = c.mime;
      outcome.meta["kind"] = std::string(to_string(kind));
      return outcome;
    }
    case FileKind::notebook: {
      NotebookOptions options;
      if (request.offset) options.offset = *request.offset;
      options.limit = request.limit;
      options.max_output_bytes = media_text_cap(limits);
      options.image = limits.image;
      return typed(read_notebook(file, options, cancel), FileKind::notebook);
    }
    case FileKind::image:
      return typed(read_image(file, c, limits.image, cancel), FileKind::image);
    case FileKind::audio:
      return typed(read_audio(file, c, limits.audio_max_bytes, cancel), FileKind::audio);
    case FileKind::pdf:  // handled above
    case FileKind::binary:
      break;
  }
  return with_type_meta(ReadOutcome::error(binary_refusal(file, c, size)), file, c, kind);
}

}  // namespace mcpread::readers
