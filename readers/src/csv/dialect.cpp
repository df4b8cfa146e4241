#include "csv/dialect.hpp"

#include "csv/sources.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace mcpread::readers::csv {
namespace {

constexpr std::size_t kSampleRecords = 100;
constexpr std::size_t kHeaderSample = 20;  // data rows a header is compared with

std::vector<Record> sample(std::string_view head, Dialect dialect, bool whole) {
  StringSource source(head);
  RecordReader reader(source, dialect, 0);
  std::vector<Record> records;
  Record r;
  while (records.size() <= kSampleRecords && reader.next(&r) == RecordReader::Got::record) records.push_back(r);
  // A head cut inside its last record would count that record's fields short.
  if (!whole && records.size() > 1 && reader.position() >= head.size()) records.pop_back();
  return records;
}

struct Fit {
  std::size_t fields = 1;  // the commonest number of fields
  double agreement = 0;    // the share of records with that many
};

Fit fit(const std::vector<Record>& records) {
  std::map<std::size_t, std::size_t> counts;
  for (const Record& r : records) ++counts[r.fields.size() + r.fields_left_out];
  Fit best;
  std::size_t most = 0;
  for (const auto& [fields, n] : counts)
    if (n > most || (n == most && fields > best.fields)) {
      most = n;
      best.fields = fields;
    }
  best.agreement = records.empty() ? 0 : static_cast<double>(most) / static_cast<double>(records.size());
  return best;
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// The first record names the columns when its fields differ from the data under them: text over
// numbers or dates, or a length unlike the column's one length (codes, flags). Each column votes.
bool has_header(const std::vector<Record>& records) {
  if (records.size() < 2) return false;
  const Record& first = records.front();
  std::set<std::string_view> names;
  for (const std::string& f : first.fields) {
    const std::string_view name = trimmed(f);
    if (value_like(name)) return false;  // numbers name no columns
    if (!name.empty() && !names.insert(name).second) return false;
  }
  int votes = 0;
  const std::size_t rows = std::min(records.size(), kHeaderSample + 1);
  for (std::size_t c = 0; c < first.fields.size(); ++c) {
    const std::string_view name = trimmed(first.fields[c]);
    if (name.empty()) continue;
    bool values = true, texts = true, one_length = true, repeated = false;
    std::size_t length = 0, seen = 0;
    for (std::size_t i = 1; i < rows; ++i) {
      if (c >= records[i].fields.size()) continue;
      const std::string_view v = trimmed(records[i].fields[c]);
      if (v.empty()) continue;
      const bool value = value_like(v);
      values = values && value;
      texts = texts && !value;
      if (seen == 0) length = v.size();
      one_length = one_length && v.size() == length;
      repeated = repeated || v == name;
      ++seen;
    }
    if (seen == 0) continue;
    // One length tells only of a column of texts (codes, flags), and only past two of them.
    one_length = one_length && texts && seen >= 3;
    if (repeated) --votes;  // the name comes again below: it is a value
    else if (values || (one_length && name.size() != length)) ++votes;
    else if (one_length) --votes;
  }
  return votes > 0;
}

}  // namespace

bool value_like(std::string_view field) {
  field = trimmed(field);
  if (field.empty()) return false;
  bool digit = false;
  for (const char c : field) {
    if (c >= '0' && c <= '9') digit = true;
    else if (std::string_view("+-.,:/ %eE$").find(c) == std::string_view::npos) return false;
  }
  return digit && field.front() != 'e' && field.front() != 'E';
}

std::string_view delimiter_name(char delimiter) {
  switch (delimiter) {
    case '\t': return "tab";
    case ';': return "semicolon";
    case '|': return "vertical bar";
    default: return "comma";
  }
}

Dialect detect_dialect(std::string_view head, std::string_view extension, bool whole) {
  Dialect dialect;
  if (head.find('\n') == std::string_view::npos && head.find('\r') != std::string_view::npos) dialect.newline = '\r';
  // Tabs, semicolons and bars rarely fall in a field by chance; commas do (text, decimal commas
  // under semicolons): a consistent rarer delimiter wins over the comma.
  constexpr std::array kCandidates = {'\t', ';', '|', ','};
  const bool tabbed = extension == "tsv" || extension == "tab";
  // Ranked by: splits at all, splits consistently (90 % of the records alike), is the tab a .tsv
  // promises, then among consistent ones the rarer delimiter, among the others the more alike.
  using Rank = std::tuple<bool, bool, bool, double>;
  std::optional<Rank> best_rank;
  char best = tabbed ? '\t' : ',';
  std::vector<Record> best_records;
  for (std::size_t i = 0; i < kCandidates.size(); ++i) {
    Dialect candidate = dialect;
    candidate.delimiter = kCandidates[i];
    std::vector<Record> records = sample(head, candidate, whole);
    const Fit f = fit(records);
    const bool consistent = f.agreement >= 0.9;
    const Rank rank{f.fields >= 2, consistent, tabbed && kCandidates[i] == '\t',
                    consistent ? -static_cast<double>(i) : f.agreement};
    if (f.fields >= 2 && (!best_rank || rank > *best_rank)) {
      best_rank = rank;
      best = kCandidates[i];
      best_records = std::move(records);
    }
  }
  dialect.delimiter = best;
  if (best_records.empty()) best_records = sample(head, dialect, whole);
  dialect.header = has_header(best_records);
  return dialect;
}

}  // namespace mcpread::readers::csv
