#pragma once
// The body text of a Hangul word processor (HWP 5.0) document: its sections' record streams,
// already inflated, read into an office::Document. No Debian library reads HWP 5, so this is a
// small parser of our own after Hancom's public "HWP 5.0 file format" document; it trusts no
// size or count in the file (each is checked against the bytes there are) and is fuzzed
// (fuzz/fuzz_hwp.cpp). Internal to the readers library.
#include "office/document.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace mcpread::readers::hwp {

// The records' tag ids this reader acts on (HWPTAG_BEGIN = 0x10).
inline constexpr unsigned kTagParaHeader = 0x42;
inline constexpr unsigned kTagParaText = 0x43;
inline constexpr unsigned kTagCtrlHeader = 0x47;
inline constexpr unsigned kTagListHeader = 0x48;
inline constexpr unsigned kTagTable = 0x4D;

// Bounds on what hostile input can make.
inline constexpr std::size_t kMaxTableGrid = 100000;    // rows x columns of one table
inline constexpr std::size_t kMaxGridSlots = 1000000;   // of all the document's tables together
inline constexpr std::size_t kMaxBlocks = 500000;       // paragraphs and tables kept at most
inline constexpr std::size_t kMaxDepth = 64;            // tables inside table cells

// The document's body as its sections are read.
struct Body {
  office::Document doc;
  std::size_t grid_slots = 0;  // rows x columns of the tables made so far
  bool cut = false;            // kMaxBlocks reached: the rest is not read
};

// Reads one section's records (inflated) into paragraphs and tables appended to body->doc: the
// paragraphs in order, a table as a Markdown table of its cells (a table inside a cell, or one
// past the grid limits, as its cells' lines). False with *error saying why when the records are
// damaged (a record runs past the end); what came before is kept.
bool read_section(std::string_view records, Body* body, std::string* error);

}  // namespace mcpread::readers::hwp
