// An Outlook data file's listing: its folders as they nest, each with its messages numbered from 1
// (date, sender, subject), paged; and in every listing how to read one. A message is answered as
// the mail reader answers an .eml (mail::render_message): headers, body, attachments.
#include "pst/pst_reader.hpp"

#include "human_size.hpp"
#include "inside_file.hpp"
#include "listing_page.hpp"
#include "mail/mail_reader.hpp"
#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/utf8.hpp"
#include "msg/msg_properties.hpp"

#include <algorithm>

namespace mcpread::readers::pst {
namespace {

std::string counted(std::uint64_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

// Text on one line: invalid UTF-8 replaced, control characters (line breaks, tabs) made spaces.
std::string one_line(std::string_view s) {
  std::string out = utf8::sanitized(s);
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  return out;
}

std::string date_of(std::uint64_t filetime) { return filetime == 0 ? "(no date)" : msg::rfc5322_date(filetime); }

ReadOutcome refusal(const std::string& message) { return ReadOutcome::error(utf8::sanitized(message)); }

}  // namespace

ReadOutcome list_store(const std::string& shown_raw, const Extracted& e, const ReadRequest& request,
                       const ReadLimits& limits) {
  const std::string shown = utf8::sanitized(shown_raw);
  std::vector<std::string> lines;
  std::uint64_t messages = 0;
  const Folder* example = nullptr;
  for (const Folder& f : e.folders) {
    messages += f.count;
    if (example == nullptr && !f.messages.empty()) example = &f;
    lines.push_back(std::string(2 * static_cast<std::size_t>(std::min(f.depth, 8)), ' ') + one_line(f.path) + "/ — " +
                    counted(f.count, "message", "messages"));
    for (std::size_t i = 0; i < f.messages.size(); ++i) {
      const MessageLine& m = f.messages[i];
      lines.push_back(std::string(2 * static_cast<std::size_t>(std::min(f.depth, 8)) + 2, ' ') + std::to_string(i + 1) +
                      ". " + date_of(m.filetime) + " | " + (m.from.empty() ? "(no sender)" : one_line(m.from)) + " | " +
                      (m.subject.empty() ? "(no subject)" : one_line(m.subject)));
    }
  }
  const std::uint64_t total = lines.size();
  const std::uint64_t offset = std::max<std::uint64_t>(request.offset.value_or(1), 1);
  const std::uint64_t page_size = std::max<std::uint64_t>(
      1, std::min<std::uint64_t>(request.limit.value_or(limits.max_directory_entries), limits.max_directory_entries));
  const std::uint64_t first = std::min(offset - 1, total);
  const std::uint64_t page = std::min(total - first, page_size);

  ReadOutcome out;
  out.meta = {{"path", shown}, {"format", "PST"}, {"folders", e.folders.size()}, {"messages", messages},
              {"entries", total}, {"shown", 0}, {"truncated", false}};
  std::string head = "Outlook data file " + shown + ": " + counted(e.folders.size(), "folder", "folders") + ", " +
                     counted(messages, "message", "messages") + ".";
  if (e.cut)
    head += "\n[Only the first " + std::to_string(kMaxFolders) + " folders and " + std::to_string(kMaxListed) +
            " messages are listed.]";
  const std::string how = "[To read a message, read the file's path followed by its folder's path and its number" +
                          (example != nullptr ? ", e.g. " + shown + "/" + one_line(example->path) + "/1" : std::string()) +
                          ".]";
  if (total == 0) {
    out.blocks.emplace_back(TextBlock{head + "\n[It has no folders to list.]"});
    return out;
  }
  const ListingWindow window{offset, first, page, total, "Entries",
                             "the end of the listing of " + shown + ": it has " + counted(total, "line", "lines")};
  return fill_listing_page(std::move(out), head, window, [&](std::uint64_t i) { return lines[i]; },
                           limits.text.max_output_bytes, "\n" + how, request.wording);
}

ReadOutcome render(const std::string& shown, const Message& m, const ReadRequest& request, const ReadLimits& limits) {
  mail::Message mail;
  const auto header = [&](const char* name, const std::string& value) {
    if (!value.empty()) mail.headers.emplace_back(name, one_line(value));
  };
  std::string from = m.line.from;
  if (!m.sender_address.empty() && m.sender_address != from)
    from = from.empty() ? m.sender_address : from + " <" + m.sender_address + ">";
  header("From", from);
  header("To", m.to);
  header("Cc", m.cc);
  if (m.line.filetime != 0) header("Date", date_of(m.line.filetime));
  header("Subject", m.line.subject);
  mail.body = utf8::sanitized(m.body);
  if (!mail.body.empty()) mail.body_mime = m.html ? "text/html" : "text/plain";
  mail.body_cut = m.body_cut;
  if (!m.attachments.empty()) {
    // Listed, not read: a data file's attachments have no path of their own here.
    std::string names;
    for (const Attached& a : m.attachments)
      names += (names.empty() ? "" : ", ") + (a.name.empty() ? std::string("(no name)") : one_line(a.name)) + " (" +
               human_size(a.size) + ")";
    mail.cuts.push_back(counted(m.attachments.size(), "attachment", "attachments") + ", listed only: " + names);
  }
  return mail::render_message(mail, "Outlook message", shown, std::nullopt, request, limits);
}

ReadOutcome read_pst_file(const OpenedFile& file, const ReadRequest& request, const ReadLimits& limits,
                          const CancelToken& cancel) {
  const std::string shown = utf8::sanitized(file.path.string());
  Extracted e;
  std::string error;
  if (!extract(file.fd.get(), true, {}, 0, &e, &error, cancel)) {
    if (cancel.cancelled()) return ReadOutcome::stopped();
    return refusal("Cannot read " + shown + " as an Outlook data file: " + error + ".");
  }
  return list_store(shown, e, request, limits);
}

std::optional<ReadOutcome> read_inside(const Roots& roots, const PathInsideFile& inside, const ReadRequest& request,
                                       const ReadLimits& limits, const CancelToken& cancel) {
  OuterFile outer = open_outer_file(roots, inside, kPstKind, request);
  if (auto* answer = std::get_if<ReadOutcome>(&outer)) return std::move(*answer);
  if (!std::holds_alternative<OpenedFile>(outer)) return std::nullopt;
  const OpenedFile& file = std::get<OpenedFile>(outer);
  const std::string shown = utf8::sanitized(file.path.string());
  const std::string path = shown + "/" + utf8::sanitized(inside.inner);
  const std::string list_it = " Read " + shown + " to list its folders and messages.";
  // <folder>/<folder>/.../<number>
  std::vector<std::string> folder;
  std::string rest = inside.inner;
  while (!rest.empty()) {
    auto [part, tail] = split_first(rest);
    folder.push_back(std::move(part));
    rest = std::move(tail);
  }
  const std::string last = folder.empty() ? std::string() : folder.back();
  const bool numbered = !last.empty() && last.size() <= 9 &&
                        std::all_of(last.begin(), last.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!numbered || folder.size() < 2 || folder.size() > kMaxDepth + 1)
    return refusal("Cannot read " + path + ": a message in an Outlook data file is read as the file's path, its " +
                   "folder's path and the message's number (from 1)." + list_it);
  folder.pop_back();
  const auto number = static_cast<std::uint32_t>(std::stoul(last));
  Extracted e;
  std::string error;
  if (!extract(file.fd.get(), false, folder, number, &e, &error, cancel)) {
    if (cancel.cancelled()) return ReadOutcome::stopped();
    return refusal("Cannot read " + path + ": " + error + ".");
  }
  if (e.folder_messages < 0) {
    std::string named;
    for (const std::string& f : folder) named += (named.empty() ? "" : "/") + f;
    return refusal("Message not found: " + path + ": " + shown + " has no folder " + named + "." + list_it);
  }
  if (!e.found)
    return refusal("Message not found: " + path + ": its folder holds " +
                   counted(static_cast<std::uint64_t>(e.folder_messages), "message", "messages") +
                   (e.folder_messages > 0 ? ", numbered from 1 to " + std::to_string(e.folder_messages) : std::string()) +
                   "." + list_it);
  return render(path, e.message, request, limits);
}

}  // namespace mcpread::readers::pst
