// An Outlook message answered as the mail reader answers an .eml (mail::render_message), and a
// path past it read into its attachments and attached messages, one component each.
#include "msg/msg_reader.hpp"

#include "human_size.hpp"
#include "inside_file.hpp"
#include "mail/mail_reader.hpp"
#include "mcpread/readers/utf8.hpp"
#include "memory_file.hpp"
#include "msg/msg_message.hpp"
#include "read_opened.hpp"
#include "whole_file.hpp"

namespace mcpread::readers::msg {
namespace {

ReadOutcome refusal(const std::string& message) { return ReadOutcome::error(utf8::sanitized(message)); }

}  // namespace

ReadOutcome read_msg_bytes(std::string_view bytes, const std::string& name, const std::string& inner,
                           const ReadRequest& request, const ReadLimits& limits, const CancelToken& cancel) {
  const MsgLimits msg_limits;
  std::string error;
  const auto file = ole2::CompoundFile::open(bytes, &error);
  if (file == nullptr)
    return ReadOutcome::error("Cannot read the Outlook message " + name + ": " + error + ".",
                              {{"path", name}, {"size", bytes.size()}});
  ole2::Path root;
  std::string shown = name;
  std::string rest = inner;
  for (std::size_t depth = 0;; ++depth) {
    if (cancel.cancelled()) return ReadOutcome::stopped();
    mail::Parsed parsed;
    if (rest.empty()) {
      parsed = parse_msg(*file, root, msg_limits, shown);
      if (!parsed.message) return refusal("Cannot read the Outlook message " + shown + ": " + parsed.error + ".");
      std::optional<std::uint64_t> size;
      if (root.empty()) size = bytes.size();
      return mail::render_message(*parsed.message, "Outlook message", shown, size, request, limits);
    }
    if (depth >= msg_limits.max_depth)
      return refusal("Cannot read " + shown + "/" + rest + ": messages are read " +
                     std::to_string(msg_limits.max_depth) + " attached messages deep at most.");
    // Named, not bound: clang 14 cannot capture a structured binding in the lambda below.
    const std::pair<std::string, std::string> split = split_first(rest);
    const std::string& part = split.first;
    const std::string tail = split.second;
    bool cut = false;
    const std::vector<MsgAttachment> attachments = msg_attachments(*file, root, msg_limits, &cut);
    const auto found = std::find_if(attachments.begin(), attachments.end(),
                                    [&part](const MsgAttachment& a) { return a.listed.name == part; });
    if (found == attachments.end() && part == kRtfBodyName && tail.empty()) {
      // A body kept only as RTF, read by the RTF reader as if attached.
      if (auto rtf = rtf_only_body(*file, root, msg_limits, &error)) {
        auto opened = memory_file(*rtf, shown + "/" + part, &error);
        if (!opened) return refusal("Cannot read " + shown + "/" + part + ": " + error + ".");
        return read_opened(*opened, request, limits, cancel);
      }
      if (!error.empty()) return refusal("Cannot read " + shown + "/" + part + ": " + error + ".");
    }
    if (found == attachments.end()) {
      parsed = parse_msg(*file, root, msg_limits, shown);
      if (!parsed.message) return refusal("Cannot read the Outlook message " + shown + ": " + parsed.error + ".");
      std::string names;
      for (const MsgAttachment& a : attachments) names += (names.empty() ? "" : ", ") + a.listed.name;
      return refusal("Cannot read " + shown + "/" + rest + ": the message has no attachment named " + part +
                     (names.empty() ? " (it has none)." : " (its attachments: " + names + ")."));
    }
    const std::string part_path = shown + "/" + part;
    if (found->listed.message) {
      root = attached_message_root(*found);
      shown = part_path;
      rest = tail;
      continue;
    }
    if (!tail.empty())
      return refusal("Cannot read " + part_path + "/" + tail + ": " + part_path + " is " + found->listed.mime +
                     ", not a message, so nothing lies inside it.");
    if (found->ole_object)
      return refusal("Cannot read " + part_path + ": it is an OLE object placed in the message (a picture or a "
                     "document shown inline), which is not read.");
    const std::optional<std::string> data = attachment_data(*file, *found, msg_limits, &error);
    if (!data) return refusal("Cannot read " + part_path + ": " + error + ".");
    // The attachment read as any file is, by the reader its name and bytes call for.
    auto opened = memory_file(*data, part_path, &error);
    if (!opened) return refusal("Cannot read " + part_path + ": " + error + ".");
    return read_opened(*opened, request, limits, cancel);
  }
}

ReadOutcome read_msg_file(const OpenedFile& file, const ReadRequest& request, const ReadLimits& limits,
                          const CancelToken& cancel) {
  auto bytes = read_whole_file(file, MsgLimits{}.max_file_bytes, "Outlook messages");
  if (auto* refused = std::get_if<ReadOutcome>(&bytes)) return std::move(*refused);
  return read_msg_bytes(std::get<std::string>(bytes), utf8::sanitized(file.path.string()), {}, request, limits, cancel);
}

std::optional<ReadOutcome> read_inside(const Roots& roots, const PathInsideFile& inside, const ReadRequest& request,
                                       const ReadLimits& limits, const CancelToken& cancel) {
  OuterFile outer = open_outer_file(roots, inside, kMsgKind, request);
  if (auto* answer = std::get_if<ReadOutcome>(&outer)) return std::move(*answer);
  if (!std::holds_alternative<OpenedFile>(outer)) return std::nullopt;
  const OpenedFile& file = std::get<OpenedFile>(outer);
  auto bytes = read_whole_file(file, MsgLimits{}.max_file_bytes, "Outlook messages");
  if (auto* refused = std::get_if<ReadOutcome>(&bytes)) return std::move(*refused);
  return read_msg_bytes(std::get<std::string>(bytes), utf8::sanitized(file.path.string()), inside.inner, request,
                        limits, cancel);
}

}  // namespace mcpread::readers::msg
