#include "read_task.hpp"

#include <spdlog/spdlog.h>

#include <utility>

namespace mcpread::server {

std::shared_ptr<ReadBudget> ReadBudget::arm(protocol::ToolCall& call, const boost::asio::any_io_executor& executor,
                                            std::chrono::milliseconds budget, std::string status_message) {
  if (!call.start_task) return nullptr;  // not a stateless request: the read stays in its request
  auto watch = std::make_shared<ReadBudget>(executor, std::chrono::steady_clock::now() + budget, call.start_task,
                                            std::move(status_message));
  // The reader's progress comes from the worker itself, so a task starts on time even when every
  // worker is busy and the timer's handler must wait for one.
  call.progress = [weak = std::weak_ptr<ReadBudget>(watch), progress = std::move(call.progress)](
                      double done, std::optional<double> total, const std::string& message) {
    if (auto self = weak.lock()) self->check();
    if (progress) progress(done, total, message);
  };
  watch->timer_.expires_at(watch->deadline_);
  watch->timer_.async_wait([weak = std::weak_ptr<ReadBudget>(watch)](const boost::system::error_code& ec) {
    if (ec) return;
    if (auto self = weak.lock()) self->check();
  });
  return watch;
}

ReadBudget::ReadBudget(boost::asio::any_io_executor executor, std::chrono::steady_clock::time_point deadline,
                       std::function<bool(const std::string&)> start_task, std::string status_message)
    : timer_(std::move(executor)),
      deadline_(deadline),
      start_task_(std::move(start_task)),
      status_message_(std::move(status_message)) {}

void ReadBudget::check() {
  std::lock_guard lock(mutex_);
  if (done_ || std::chrono::steady_clock::now() < deadline_) return;
  start_locked();
}

void ReadBudget::start_locked() {
  done_ = true;
  // False when the client did not declare the extension or no task can be stored: the read then
  // goes on in its request, as it would have.
  if (start_task_(status_message_)) spdlog::debug("read: {} runs as a task", status_message_);
}

void ReadBudget::finished() {
  std::lock_guard lock(mutex_);
  done_ = true;
  timer_.cancel();
}

}  // namespace mcpread::server
