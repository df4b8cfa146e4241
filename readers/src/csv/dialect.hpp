#pragma once
// How a delimited file is written, guessed from its first bytes: which delimiter splits its
// records most consistently, how its lines end, and whether its first record names the columns.
// Internal to the CSV reader.
#include "csv/record_reader.hpp"

#include <string_view>

namespace mcpread::readers::csv {

// `head`: the file's first bytes (UTF-8, or a charset whose delimiters are the ASCII bytes);
// `whole`: they are the whole file (else its last record may be cut and is not looked at);
// `extension`: lower case, without the dot ("tsv" prefers the tab when nothing tells).
Dialect detect_dialect(std::string_view head, std::string_view extension, bool whole);

// A number, amount, percentage, date or time as spreadsheets write them ("-1,234.5", "12%",
// "2024-03-01", "10:30"): what a header's names are not.
bool value_like(std::string_view field);

// "comma", "tab", "semicolon", "vertical bar": how the answer names the delimiter.
std::string_view delimiter_name(char delimiter);

}  // namespace mcpread::readers::csv
