#include "mcpread/server/log_format.hpp"

#include <nlohmann/json.hpp>
#include <spdlog/details/log_msg.h>

#include <chrono>
#include <ctime>
#include <string>

namespace mcpread::server {
namespace {

class JsonLogFormatter : public spdlog::formatter {
 public:
  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
    const auto since_epoch = msg.time.time_since_epoch();
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(since_epoch);
    const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(since_epoch - seconds).count();
    const std::time_t t = static_cast<std::time_t>(seconds.count());
    std::tm utc{};
    gmtime_r(&t, &utc);
    char stamp[40];
    const std::size_t n = std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &utc);
    std::snprintf(stamp + n, sizeof stamp - n, ".%03dZ", static_cast<int>(millis));
    const auto level = spdlog::level::to_string_view(msg.level);
    // dump() with replacement: a message holding invalid UTF-8 (a file name) still gives a line
    // of valid JSON instead of an exception.
    const std::string line =
        nlohmann::json{{"time", stamp},
                       {"level", std::string(level.data(), level.size())},
                       {"logger", std::string(msg.logger_name.data(), msg.logger_name.size())},
                       {"message", std::string(msg.payload.data(), msg.payload.size())}}
            .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
        "\n";
    dest.append(line.data(), line.data() + line.size());
  }
  [[nodiscard]] std::unique_ptr<spdlog::formatter> clone() const override {
    return std::make_unique<JsonLogFormatter>();
  }
};

}  // namespace

std::unique_ptr<spdlog::formatter> json_log_formatter() { return std::make_unique<JsonLogFormatter>(); }

}  // namespace mcpread::server
