#include "dbf/dbf_table.hpp"

#include "dbf/dbf_header.hpp"
#include "dbf/dbf_values.hpp"
#include "file_io.hpp"
#include "mcpread/readers/charset.hpp"
#include "mcpread/readers/utf8.hpp"

#include <algorithm>
#include <cctype>
#include <memory>
#include <vector>

namespace mcpread::readers::dbf {

namespace {

constexpr std::size_t kChunkBytes = 1u << 20;  // records read at a time
constexpr std::size_t kSampleBytes = 64 * 1024;  // of text, to guess an unstated charset
constexpr std::uint64_t kMaxRecords = sheets::kMaxRows - 1;  // row 1 holds the field names

std::string n2s(std::uint64_t v) { return std::to_string(v); }

std::string column_letters(std::size_t column) {
  std::string s;
  for (std::size_t c = column + 1; c > 0; c = (c - 1) / 26) s.insert(s.begin(), static_cast<char>('A' + (c - 1) % 26));
  return s;
}

// A .cpg's charset: ESRI's numbers ("1252", "88591", "65001") or a label ("UTF-8", "ISO-8859-1").
std::string cpg_charset(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  if (text.empty() || text.size() > 40) return {};
  std::string label(text);
  if (std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    if (text == "65001") return "UTF-8";
    if (text.size() >= 5 && text.substr(0, 4) == "8859") label = "ISO-8859-" + std::string(text.substr(4));
    else label = "CP" + label;  // other numbers are Windows code pages
  }
  DetectedCharset cs;
  if (!resolve_encoding_name(label, &cs)) return {};
  return cs.name;
}

std::string type_of(const Field& f) {
  std::string s(1, f.type);
  if (f.type == 'C' || f.type == 'N' || f.type == 'F') s += " " + n2s(f.length);
  if ((f.type == 'N' || f.type == 'F') && f.decimals > 0) s += "." + n2s(f.decimals);
  return s;
}

class DbfWorkbook final : public sheets::Workbook {
 public:
  DbfWorkbook(const OpenedFile& table, Header header, std::optional<MemoFile> memo, std::string charset,
              std::string sheet_name)
      : table_(table), header_(std::move(header)), memo_(std::move(memo)), charset_(std::move(charset)) {
    for (std::size_t i = 0; i < header_.fields.size(); ++i)
      if (header_.fields[i].type != '0') shown_.push_back(i);  // Visual FoxPro's _NullFlags: bookkeeping
    records_ = std::min<std::uint64_t>(header_.records, kMaxRecords);
    sheets::SheetInfo info;
    info.name = std::move(sheet_name);
    if (!shown_.empty()) info.extent = "A1:" + column_letters(shown_.size() - 1) + n2s(records_ + 1);
    sheets_.push_back(std::move(info));
  }

  // Reads the deletion flags of the records shown; false with *error on a read error.
  bool scan(std::string* error, const CancelToken& cancel) {
    deleted_.assign(records_, false);
    const std::uint64_t per_chunk = std::max<std::uint64_t>(1, kChunkBytes / header_.record_length);
    std::string buf;
    for (std::uint64_t i = 0; i < records_; i += per_chunk) {
      if (cancel.cancelled()) return false;
      const std::uint64_t n = std::min(per_chunk, records_ - i);
      if (!read_records(i, n, &buf, error)) return false;
      for (std::uint64_t k = 0; k < n; ++k)
        if (buf[k * header_.record_length] == '*') deleted_[i + k] = true, ++deleted_count_;
      if (charset_.empty()) sample_text(buf, n);
    }
    if (charset_.empty()) guess_charset();
    if (charset_ != "UTF-8") converter_ = std::make_unique<Utf8Converter>(charset_);
    return true;
  }

  const std::string& charset() const { return charset_; }

  // Text of the table (a value, a field's name) in UTF-8.
  std::string decode(std::string_view raw) {
    if (charset_ == "UTF-8") return utf8::sanitized(raw);
    std::string out;
    if (converter_ && converter_->ok()) converter_->convert(raw, out, true);
    else out = utf8::sanitized(raw);
    return out;
  }

  std::string note() const override { return note_; }
  void set_note(std::string note) { note_ = std::move(note); }
  std::uint64_t deleted() const { return deleted_count_; }
  const std::vector<std::size_t>& shown_fields() const { return shown_; }

  bool rows(std::size_t index, std::uint64_t first_row, const sheets::RowSink& sink, std::vector<std::string>*,
            std::string* error) override {
    if (index != 0) return *error = "there is no such sheet", false;
    sheets::Row names;
    names.number = 1;
    for (std::size_t c = 0; c < shown_.size(); ++c)
      sheets::add_cell(names, {static_cast<std::uint32_t>(c), decode(header_.fields[shown_[c]].name)});
    if (!sink(std::move(names))) return true;
    // Row n+1 is record n whether records before it are deleted or not (a deleted record leaves
    // its row number unused), so a page starts at the record its first row names: one pread at
    // header length + index * record length, however deep. Of the rows before the page only the
    // last shown one is passed, without its cells: it tells where the values end when the page
    // lies past them. Which rows are shown comes from the deletion flags scan() read at opening
    // (it reads them all anyway, to count the deleted records in the note).
    std::uint64_t i = first_row > 2 ? std::min(first_row - 2, records_) : 0;
    for (std::uint64_t k = i; k-- > 0;)
      if (!deleted_[k]) {
        sheets::Row row;
        row.number = k + 2;
        if (!sink(std::move(row))) return true;
        break;
      }
    const std::uint64_t per_chunk = std::max<std::uint64_t>(1, kChunkBytes / header_.record_length);
    std::string buf;
    while (i < records_) {
      const std::uint64_t n = std::min(per_chunk, records_ - i);
      if (!read_records(i, n, &buf, error)) return false;
      for (std::uint64_t k = 0; k < n; ++k, ++i) {
        if (deleted_[i]) continue;
        const std::string_view record(buf.data() + k * header_.record_length, header_.record_length);
        if (!sink(row_of(record, i + 2))) return true;
      }
    }
    return true;
  }

 private:
  bool read_records(std::uint64_t first, std::uint64_t n, std::string* buf, std::string* error) {
    buf->resize(static_cast<std::size_t>(n * header_.record_length));
    const auto got = file_io::pread_full(table_.fd.get(), buf->data(), buf->size(),
                                         header_.header_length + first * header_.record_length);
    if (!got || *got < buf->size()) return *error = "the file cannot be read to its end (it may have changed)", false;
    return true;
  }

  // The text fields' bytes of records in `buf`, for a table that does not say its charset.
  void sample_text(const std::string& buf, std::uint64_t n) {
    for (std::uint64_t k = 0; k < n && sample_.size() < kSampleBytes; ++k)
      for (const Field& f : header_.fields)
        if (f.type == 'C' || f.type == 'M') {
          const std::string_view text = trim_text(std::string_view(buf).substr(k * header_.record_length + f.offset, f.length));
          sample_.append(text).push_back('\n');
        }
  }

  // UTF-8 when the sample is, else the DOS or Windows code page it reads best in (a shapefile
  // without a .cpg is often in the DOS code page of the program that wrote it).
  void guess_charset() {
    const std::span<const unsigned char> bytes(reinterpret_cast<const unsigned char*>(sample_.data()), sample_.size());
    DetectedCharset cs;
    if (utf8::is_valid(sample_)) charset_ = "UTF-8";
    else if (const auto likely = likely_charsets(bytes, 1); !likely.empty() && resolve_encoding_name(likely[0], &cs))
      charset_ = cs.name;
    else charset_ = "CP1252";
    std::string().swap(sample_);
  }

  sheets::Row row_of(std::string_view record, std::uint64_t number) {
    sheets::Row row;
    row.number = number;
    for (std::size_t c = 0; c < shown_.size(); ++c) {
      if (row.cut) break;  // the row holds all the text it may: its other fields (and memos) unread
      const Field& f = header_.fields[shown_[c]];
      const std::string_view bytes = record.substr(f.offset, f.length);
      std::string text;
      if (is_memo(header_, f)) text = memo_text(f, bytes);
      else if (auto v = format_value(header_, f, bytes)) text = std::move(*v);
      else text = decode(trim_text(bytes));
      if (!text.empty()) sheets::add_cell(row, {static_cast<std::uint32_t>(c), std::move(text)});
    }
    return row;
  }

  std::string memo_text(const Field& f, std::string_view bytes) {
    const std::uint64_t block = memo_block(header_, bytes);
    if (block == 0) return {};
    if (!memo_) return "[memo]";
    const auto memo = memo_->read(block);
    if (!memo) return "[memo " + n2s(block) + ": outside the memo file]";
    if (memo->binary || f.type != 'M') return "[binary memo: " + n2s(memo->size) + " bytes]";
    std::string text = decode(trim_text(memo->bytes));
    return memo->cut ? text + " [memo cut at " + n2s(kMaxMemoBytes) + " bytes]" : text;
  }

  const OpenedFile& table_;
  Header header_;
  std::optional<MemoFile> memo_;
  std::string charset_;  // empty until scan() guesses it: the table does not say
  std::string sample_;
  std::unique_ptr<Utf8Converter> converter_;
  std::vector<std::size_t> shown_;
  std::uint64_t records_ = 0;
  std::vector<bool> deleted_;
  std::uint64_t deleted_count_ = 0;
  std::string note_;
};

}  // namespace

ReadOutcome read_dbf(const OpenedFile& table, Companions companions, const sheets::SheetOptions& options,
                     const CancelToken& cancel) {
  const std::string path = utf8::sanitized(table.path.string());
  const auto size = static_cast<std::uint64_t>(table.st.st_size);
  nlohmann::json meta = {{"path", path}, {"size", size}};
  const std::string cannot = path + " cannot be read as a dBASE table: ";
  std::string head(std::min<std::uint64_t>(size, 65535), '\0');
  const auto got = file_io::pread_full(table.fd.get(), head.data(), head.size(), 0);
  if (!got) return ReadOutcome::error(cannot + "it cannot be read.", std::move(meta));
  head.resize(*got);
  std::string error;
  const auto header =
      parse_header({reinterpret_cast<const unsigned char*>(head.data()), head.size()}, false, &error);
  if (!header) return ReadOutcome::error(cannot + error + ".", std::move(meta));
  // The header's counts must account for the file: a file they do not fit is not this table.
  const std::uint64_t expected = header->header_length + std::uint64_t{header->records} * header->record_length;
  if (size < expected || size > expected + header->record_length)
    return ReadOutcome::error(cannot + "its header claims " + n2s(header->records) + " records of " +
                                  n2s(header->record_length) + " bytes after " + n2s(header->header_length) +
                                  " bytes of header (" + n2s(expected) + " bytes), but the file has " + n2s(size) +
                                  " bytes; it is damaged or not a dBASE table.",
                              std::move(meta));
  std::string charset, charset_said;
  if (!companions.cpg.empty() && !(charset = cpg_charset(companions.cpg)).empty()) {
    charset_said = charset + ", as its .cpg file says";
  } else if (!(charset = code_page_charset(header->code_page)).empty()) {
    charset_said = charset + ", its header's code page";
  }
  std::string memo_said;
  const bool memo_fields =
      std::any_of(header->fields.begin(), header->fields.end(), [&](const Field& f) { return is_memo(*header, f); });
  std::optional<MemoFile> memo;
  if (memo_fields && companions.memo) {
    std::string ext = companions.memo->path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    memo.emplace(std::move(*companions.memo), ext == ".fpt", header->version);
    memo_said = " Memo text is read from " + utf8::sanitized(memo->name()) + ".";
  } else if (memo_fields) {
    memo_said = std::string(" The memo file (") + (header->foxpro() ? ".fpt" : ".dbt") + ") " +
                (companions.looked ? "is not beside the table" : "is not looked for on this system") +
                ": the memo fields' text is not read (their cells show [memo]).";
  }
  std::string sheet = utf8::sanitized(table.path.stem().string());
  DbfWorkbook book(table, *header, std::move(memo), charset, sheet);
  if (!book.scan(&error, cancel)) {
    if (cancel.cancelled()) return ReadOutcome::stopped();
    return ReadOutcome::error(cannot + error + ".", std::move(meta));
  }
  std::string fields;
  for (std::size_t c : book.shown_fields()) {
    const Field& f = header->fields[c];
    fields += (fields.empty() ? "" : ", ") + book.decode(f.name) + " (" + type_of(f) + ")";
  }
  const std::uint64_t records = header->records;
  const std::size_t shown = book.shown_fields().size();
  std::string note = version_name(header->version) + " table, " + n2s(shown) + (shown == 1 ? " field: " : " fields: ") +
                     fields + ". " + n2s(records) + (records == 1 ? " record" : " records");
  if (book.deleted() > 0)
    note += " (" + n2s(book.deleted()) + " deleted, left out)";
  if (charset_said.empty()) charset_said = book.charset() + " (the table does not say; guessed from its text)";
  note += "; row 1 holds the field names, record n is row n+1. Text: " + charset_said + "." + memo_said;
  if (records > kMaxRecords) note += " Only the first " + n2s(kMaxRecords) + " records are read.";
  book.set_note(std::move(note));
  meta["records"] = records;
  meta["deleted"] = book.deleted();
  return sheets::render_workbook(book, path, "dBASE table", "a dBASE table", options, cancel, std::move(meta));
}

}  // namespace mcpread::readers::dbf
