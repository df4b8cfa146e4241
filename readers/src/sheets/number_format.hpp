#pragma once
// Numbers of a spreadsheet cell shown as the cell shows them: Excel's built-in number formats
// (ids 0-49: decimals, thousands, percent, scientific, dates and times) and the common custom
// format codes ("0.000", "#,##0.00 \"EUR\"", "yyyy-mm-dd hh:mm", "[h]:mm:ss", "0.0%"). What a
// code asks beyond these (fractions, conditions, locales) falls back to the General format.
// Internal to the readers library.
#include <string>
#include <string_view>

namespace mcpread::readers::sheets {

// The code of built-in format `id`; empty when `id` is not one (then General applies). The
// locale-dependent short date (14) and date-time (22) are written as ISO dates: the Excel that
// wrote the file showed them in its reader's locale, and an ISO date is unambiguous to any reader.
std::string_view builtin_format(unsigned id);

// True when `code` shows a date or a time (its serial number is then a date).
bool is_date_format(std::string_view code);

// `value` as `code` shows it (General when `code` is empty, "General" or "@"); `date1904` for
// workbooks counting days from 1904.
std::string format_number(double value, std::string_view code, bool date1904 = false);

// True when `code` shows numbers as General does (empty, "General" in any case, or "@").
bool is_general_format(std::string_view code);

// General: up to 15 significant digits, no trailing zeros ("0.1", "12345678901", "1.5E+20").
std::string general_number(double value);

// An error value as its cell shows it ("#DIV/0!"): the codes BIFF8's records (.xls) and BIFF12's
// (.xlsb) share; "#ERROR!" for a code neither defines.
std::string excel_error_text(unsigned code);

}  // namespace mcpread::readers::sheets
