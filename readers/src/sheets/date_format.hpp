#pragma once
// Dates and times of a spreadsheet cell as the date section of its number format code shows them
// ("yyyy-mm-dd", "d-mmm-yy", "h:mm AM/PM", "[h]:mm:ss", "ss.00"), the cell's number being days
// since 1900 (Excel's, with Lotus's leap day) or 1904. Internal to the readers library: the part
// of number_format.cpp that knows the calendar.
#include <cstdint>
#include <string>
#include <string_view>

namespace mcpread::readers::sheets {

// `value` as date section `section` shows it; General when it lies past 9999-12-31 or before 1900.
std::string format_date(double value, std::string_view section, bool date1904);

// `v` in decimal, at least `width` digits ("-007" for -7 and 3).
std::string zero_padded(std::int64_t v, int width);


}  // namespace mcpread::readers::sheets
