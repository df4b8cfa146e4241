#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/read.hpp"

#include "human_size.hpp"
#include "mcpread/readers/listing.hpp"
#include "mcpread/readers/registry.hpp"
#include "registry/classified_file.hpp"
#include "read_opened.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <string>

namespace mcpread::readers {
namespace {

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
ReadOutcome column_refused(const Wording& wording, const std::string& path, const std::string& what,
                           const std::string& instead) {
  const Hint column{.column = 1, .without = true};
  return ReadOutcome::error("The \"" + wording.say(column, HintForm::names) +
                            "\" argument applies to lines of text, and " + path + " is " + what + ". " +
                            wording.say(column, HintForm::Call) + instead + ".");
}

// The refusal of a file no reader takes, with a hint that fits what it is: audio and video say
// what the tool sends and how to get there; only data libmagic cannot name may be text in an
// unusual charset, so only it gets the encoding hint.
std::string binary_refusal(const OpenedFile& file, const Classification& c, const std::string& size,
                           const Wording& wording) {
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
    m += " If it is text in an unusual charset, " +
         wording.say({.as = FileKind::text, .encoding = "windows-1252", .encoding_is_example = true}) + ".";
  return m;
}

}  // namespace

ReadOutcome read_file(const Roots& roots, const ReadRequest& request, const ReadLimits& limits,
                      const CancelToken& cancel) {
  if (roots.empty())
    return ReadOutcome::error("No directory may be read: the client's roots leave no allowed "
                              "directory. Add a root that contains the file.");
  AccessResult access = open_in_roots(roots, request.file_path);
  if (auto* denied = std::get_if<AccessError>(&access)) {
    // A path that goes on past a regular file ("/data/a.zip/docs/x.txt") may name a member of
    // a file that holds others (an archive): that file's reader decides, and its refusal is the
    // answer only when the file is of its kind.
    if (denied->reason == AccessError::Reason::not_found)
      if (auto inside = split_at_file(roots, request.file_path))
        for (const Reader& reader : reader_registry().readers())
          if (reader.read_inside != nullptr)
            if (auto member = reader.read_inside(roots, *inside, request, limits, cancel)) return std::move(*member);
    return ReadOutcome::error(denied->message);
  }
  const bool column = request.column.value_or(1) > 1;
  const Wording& wording = request.wording;
  if (auto* dir = std::get_if<DirectoryTarget>(&access)) {
    if (request.nowait != 0) return ReadOutcome::waits();  // a listing may be long
    if (column)
      return column_refused(wording, dir->path.string(), "a directory",
                            "; " + wording.say({.offset = 1, .limit = 1}, HintForm::names) +
                                " page through a listing");
    // A page of the listing: `limit` entries (at most the configured page) from `offset`.
    const std::size_t page = request.limit
                                 ? static_cast<std::size_t>(std::min<std::uint64_t>(
                                       *request.limit, limits.max_directory_entries))
                                 : limits.max_directory_entries;
    return list_directory(dir->path, page, request.offset.value_or(1), limits.text.max_output_bytes,
                          wording);
  }
  return read_opened(std::get<OpenedFile>(access), request, limits, cancel);
}

ReadOutcome read_opened(const OpenedFile& file, const ReadRequest& request, const ReadLimits& limits,
                        const CancelToken& cancel) {
  const bool column = request.column.value_or(1) > 1;
  const Wording& wording = request.wording;
  if (cancel.cancelled()) return ReadOutcome::stopped();
  const bool nowait = request.nowait != 0;
  if (nowait && (!S_ISREG(file.st.st_mode) || static_cast<std::uint64_t>(file.st.st_size) > request.nowait))
    return ReadOutcome::waits();

  std::string error;
  const auto classified = classify_opened(file, &error, nowait);
  if (!classified && nowait && (errno == EAGAIN || errno == EOPNOTSUPP)) return ReadOutcome::waits();
  if (!classified) return ReadOutcome::error("Cannot read " + file.path.string() + ": " + error + ".");
  const Classification& c = *classified;
  // An `encoding` says the file is text: a file classified as binary is decoded with it.
  const FileKind kind = request.forced_kind.value_or(
      c.kind == FileKind::binary && !request.encoding.empty() ? FileKind::text : c.kind);
  // Other kinds decode for a while (images, PDFs, documents): only plain text cannot wait.
  if (nowait && (c.kind != FileKind::text || kind != FileKind::text || c.extension_kind)) return ReadOutcome::waits();
  const std::string size = human_size(static_cast<std::uint64_t>(file.st.st_size));

  if (!request.forced_kind && c.extension_kind) {
    return with_type_meta(
        ReadOutcome::error(file.path.string() + " is named like " + std::string(article(*c.extension_kind)) +
                           " but is not one: its content is " + std::string(article(c.kind)) + ", " +
                           what_it_is(c) + ", " + size + "." +
                           (c.kind == FileKind::text ? " " + wording.say({.as = FileKind::text}, HintForm::Call) + " to read it as text." : "")),
        file, c, c.kind);
  }

  // A file's own reader keeps it when asked for a reading it also serves (a PDF asked for as
  // text gives its pages' text); otherwise the reader of the kind asked for reads it.
  const ReaderRegistry& registry = reader_registry();
  const Reader* reader = registry.find(c.kind);
  if (reader == nullptr || (kind != c.kind && std::find(reader->also_serves.begin(), reader->also_serves.end(),
                                                        kind) == reader->also_serves.end()))
    reader = registry.find(kind);
  if (reader == nullptr || reader->read == nullptr)
    return with_type_meta(ReadOutcome::error(binary_refusal(file, c, size, wording)), file, c, kind);

  if (column && !reader->reads_columns)
    return with_type_meta(column_refused(wording, file.path.string(), std::string(reader->article),
                                         " (or with " + wording.say({.as = FileKind::text}, HintForm::arguments) +
                                             " to read it as text)"),
                          file, c, reader->kind);
  ReadOutcome outcome = reader->read(ReaderCall{file, c, kind, request, limits, cancel});
  if (outcome.deferred) return outcome;  // nothing else is set
  // Errors of the readers also carry what the file is: its reader's kind.
  if (outcome.is_error && !outcome.cancelled) return with_type_meta(std::move(outcome), file, c, reader->kind);
  // Set here, once for every reader and never by one: what the file was read as (a PDF asked for
  // as text is "text"), a name from the registry.
  outcome.meta["kind"] = std::string(kind.name());
  return outcome;
}

std::size_t media_text_cap(const ReadLimits& limits) {
  return limits.media_max_output_bytes != 0
             ? std::min(limits.media_max_output_bytes, limits.text.max_output_bytes)
             : limits.text.max_output_bytes;
}

}  // namespace mcpread::readers
