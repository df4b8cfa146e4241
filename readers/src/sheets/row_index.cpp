#include "sheets/row_index.hpp"

#include "sheets/row_skipper.hpp"
#include "sheets/xml_fragment.hpp"

#include <algorithm>

namespace mcpread::readers::sheets {
namespace {

constexpr std::size_t kBatch = 32 * 1024;  // rows parsed at a time: what a page may parse past its end

}  // namespace

std::size_t RowIndex::bytes() const {
  std::size_t n = sizeof(*this) + rows.capacity() * sizeof(Entry) + (extent ? extent->capacity() : 0);
  for (const auto& m : merges) n += sizeof(m) + m.capacity();
  return n;
}

std::shared_ptr<const RowIndex> index_rows(std::string_view xml, std::string_view part) {
  if (!declares_utf8(xml) || xml.size() >= RowIndex::kValue) return nullptr;
  auto index = std::make_shared<RowIndex>();
  std::string frame;  // all but the rows
  bool too_long = false;
  RowSkipper skipper(
      UINT64_MAX, part, [](std::uint64_t, bool) { return true; },
      [&](std::string_view bytes) {
        frame += bytes;
        return true;
      });
  skipper.on_bounds([&](std::uint64_t number, std::uint64_t begin, std::uint64_t end, bool value) {
    too_long = too_long || end - begin > kMaxIndexedRow;
    index->rows.push_back({static_cast<std::uint32_t>(number) | (value ? RowIndex::kValue : 0),
                           static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end)});
  });
  for (std::size_t at = 0; at < xml.size(); at += 64 * 1024)
    if (!skipper.feed(xml.substr(at, 64 * 1024))) return nullptr;
  if (!skipper.finish() || !skipper.error().empty() || skipper.passing() || too_long) return nullptr;
  // The frame through the same reader: its extent and merged cells, or a refusal. pugixml reads
  // it unless it is unusual; then libxml2 does, and has the last word.
  const SharedStrings none;
  const std::vector<std::string> no_formats;
  const RowSink ignore = [](Row&&) { return true; };
  SheetReader reader(none, no_formats, false, 1, ignore, &index->merges, &index->extent);
  std::string error;
  std::string whole = frame;  // parsed in place: `frame` stays for libxml2
  const auto result = XmlFragment().run_whole(whole, part, reader, [&] { return reader.stopped(); }, &error);
  if (result == XmlFragment::Result::too_deep) return nullptr;
  if (result == XmlFragment::Result::read) {
    index->rows.shrink_to_fit();
    return index;
  }
  error.clear();
  auto stream = XmlStream::create(reader, part, &error);
  if (!stream || !stream->feed(frame, true) || !stream->error().empty()) return nullptr;
  index->rows.shrink_to_fit();
  return index;
}

bool read_indexed(std::string_view xml, const RowIndex& index, std::string_view part, std::uint64_t first_row,
                  SheetReader& reader, std::vector<std::string>* merges, std::optional<std::string>* extent,
                  std::string* error) {
  if (index.extent) *extent = index.extent;
  const auto& rows = index.rows;
  const auto number = [](const RowIndex::Entry& e) { return std::uint64_t{e.number & ~RowIndex::kValue}; };
  std::size_t k = 0;
  // The rows before the page, in the part's order up to the first one numbered from first_row
  // on (as RowSkipper cuts them): their numbers only.
  for (; k < rows.size() && number(rows[k]) < first_row; ++k)
    if (!reader.skipped(number(rows[k]), (rows[k].number & RowIndex::kValue) != 0)) return true;
  XmlFragment fragment;
  std::string batch;
  const auto stopped = [&] { return reader.stopped(); };
  while (k < rows.size()) {
    batch.clear();
    const std::size_t from = k;
    for (; k < rows.size() && (batch.empty() || batch.size() < kBatch); ++k)
      batch.append(xml.substr(rows[k].begin, rows[k].end - rows[k].begin));
    const auto result = fragment.run(batch, part, 2, reader, stopped, error);
    if (result == XmlFragment::Result::too_deep) return false;
    if (result == XmlFragment::Result::not_well_formed) {
      // pugixml refused the rows: libxml2 reads them from there on, and has the last word.
      error->clear();
      auto stream = XmlStream::create(reader, part, error);
      if (!stream) return false;
      reader.stream = stream.get();
      if (stream->feed(xml.substr(0, rows.front().begin), false) && stream->feed(xml.substr(rows[from].begin), true))
        return true;
      if (stream->stopped_by_handler()) return true;
      *error = stream->error();
      return false;
    }
    if (reader.stopped()) return true;
  }
  if (merges != nullptr)
    for (const auto& m : index.merges)
      if (merges->size() < 1000) merges->push_back(m);
  return true;
}

}  // namespace mcpread::readers::sheets
