#include "html/page.hpp"

#include "file_io.hpp"
#include "html_text.hpp"
#include "human_size.hpp"
#include "mcpread/readers/charset.hpp"
#include "mcpread/readers/utf8.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <span>

namespace mcpread::readers::html_page {
namespace {

std::string n2s(std::uint64_t v) { return std::to_string(v); }

}  // namespace

ReadOutcome read(const OpenedFile& file, const Options& options, const CancelToken& cancel) {
  const std::string path = utf8::sanitized(file.path.string());
  const auto size = static_cast<std::uint64_t>(file.st.st_size);
  nlohmann::json meta = {{"path", path}, {"size", size}};
  const std::string as_text =
      " " + options.wording.say({.as = FileKind::text}, HintForm::Call) + " to read its source.";
  if (size > options.max_file_bytes)
    return ReadOutcome::error(path + " is " + human_size(size) + ", over the " + human_size(options.max_file_bytes) +
                       " limit for HTML pages rendered as text." + as_text,
                   std::move(meta));
  auto bytes = file_io::read_whole(file.fd.get(), size, options.max_file_bytes);
  if (!bytes)
    return ReadOutcome::error(errno == EFBIG ? path + " grew past the " + human_size(options.max_file_bytes) +
                                        " limit for HTML pages while being read." + as_text
                                  : "Cannot read " + path + ": " + utf8::sanitized(std::strerror(errno)) + ".",
                   std::move(meta));
  if (cancel.cancelled()) return ReadOutcome::stopped();
  const auto sample = std::span(reinterpret_cast<const unsigned char*>(bytes->data()),
                                std::min<std::size_t>(bytes->size(), 64 * 1024));
  const DetectedCharset charset = detect_charset(sample);
  std::string html;
  if (charset.name == "UTF-8") {
    html = utf8::sanitized(std::string_view(*bytes).substr(std::min(charset.bom_bytes, bytes->size())));
  } else {
    Utf8Converter converter(charset.name);
    if (!converter.ok())
      return ReadOutcome::error("Cannot decode " + path + " from " + describe_charset(charset) + ": " + converter.error() + "." +
                         as_text,
                     std::move(meta));
    converter.convert(std::string_view(*bytes).substr(std::min(charset.bom_bytes, bytes->size())), html, true);
  }
  bytes.reset();
  meta["charset"] = charset.name;
  const html_text::Text page = html_text::to_text(html, true);
  if (cancel.cancelled()) return ReadOutcome::stopped();
  if (!page.error.empty()) return ReadOutcome::error("Cannot render " + path + " as text: " + page.error + "." + as_text, std::move(meta));

  // Lines of the rendered text.
  std::vector<std::string_view> lines;
  for (std::size_t at = 0; at < page.text.size();) {
    std::size_t end = page.text.find('\n', at);
    if (end == std::string::npos) end = page.text.size();
    lines.push_back(std::string_view(page.text).substr(at, end - at));
    at = end + 1;
  }
  const std::uint64_t n = lines.size();
  std::string out = "HTML page " + path + ": " + n2s(n) + (n == 1 ? " line" : " lines") + " of text" +
                    (page.tables ? ", " + n2s(page.tables) + (page.tables == 1 ? " table" : " tables") : std::string()) +
                    " (" + options.wording.say({.as = FileKind::text}, HintForm::arguments) + " reads the source).";
  meta["lines"] = n;
  meta["tables"] = page.tables;
  const std::uint64_t start = std::max<std::uint64_t>(1, options.offset);
  if (n == 0) {
    meta["truncated"] = false;
    ReadOutcome o;
    o.blocks.emplace_back(TextBlock{out + "\n\n[The page shows no text.]"});
    o.meta = std::move(meta);
    return o;
  }
  if (start > n)
    return ReadOutcome::error("Offset " + n2s(start) + " is past the end of " + path + ": its text has " + n2s(n) +
                       (n == 1 ? " line." : " lines.") + " Use an offset from 1 to " + n2s(n) + ".",
                   std::move(meta));
  const std::uint64_t last = std::min(n, start + std::max<std::uint64_t>(1, options.limit) - 1);
  out += "\n\n";
  std::uint64_t end = start - 1;
  bool capped = false;
  for (std::uint64_t i = start; i <= last; ++i) {
    const std::string_view line = lines[static_cast<std::size_t>(i - 1)];
    if (out.size() + line.size() + 300 > options.max_output_bytes) {
      if (end >= start) {
        capped = true;
        break;
      }
      out += line.substr(0, utf8::prefix_bytes(line, options.max_output_bytes / 2));
      out += " [\u2026 line cut to fit the output cap]\n";
      end = i;
      capped = true;
      break;
    }
    out += line;
    out += '\n';
    end = i;
  }
  while (out.ends_with("\n\n")) out.pop_back();  // a page ending on blank lines
  out += end < n ? "\n[Lines " + n2s(start) + "-" + n2s(end) + " of " + n2s(n) +
                       ". To read more, " + options.wording.say({.offset = end + 1}, HintForm::call_again) + ".]"
                 : "\n[Lines " + n2s(start) + "-" + n2s(end) + " of " + n2s(n) + ". End of page.]";
  meta["start_line"] = start;
  meta["end_line"] = end;
  if (end < n) meta["next_offset"] = end + 1;
  meta["truncated"] = capped;
  ReadOutcome o;
  o.blocks.emplace_back(TextBlock{utf8::is_valid(out) ? std::move(out) : utf8::sanitized(out)});
  o.meta = std::move(meta);
  return o;
}

}  // namespace mcpread::readers::html_page
