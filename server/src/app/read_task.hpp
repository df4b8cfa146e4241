#pragma once
// A read that runs past its budget becomes a task (tasks extension, 2026-07-28): the client gets
// the task's id instead of waiting on an open request, polls tasks/get (the reader's progress,
// "page 12 of 80", is its statusMessage) and may stop it with tasks/cancel. Reads that finish
// within the budget, and clients that do not declare the extension, see no change.
#include "mcpread/protocol/server_handler.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <memory>
#include <mutex>
#include <string>

namespace mcpread::server {

class ReadBudget : public std::enable_shared_from_this<ReadBudget> {
 public:
  // Watches `call` (nullptr when it cannot become a task): once `budget` has passed, a timer on
  // `executor` or the reader's next progress report starts the task. Call before the work is
  // posted; the timer waits on the executor without holding a thread.
  static std::shared_ptr<ReadBudget> arm(protocol::ToolCall& call, const boost::asio::any_io_executor& executor,
                                         std::chrono::milliseconds budget, std::string status_message);
  ReadBudget(boost::asio::any_io_executor executor, std::chrono::steady_clock::time_point deadline,
             std::function<bool(const std::string&)> start_task, std::string status_message);

  // Starts the task if the budget is spent (a budget of 0: at once). From the worker, before and
  // while it reads.
  void check();
  // The read is done: it is answered as it is (in its request, or through its task).
  void finished();

 private:
  void start_locked();

  boost::asio::steady_timer timer_;
  std::chrono::steady_clock::time_point deadline_;
  std::function<bool(const std::string&)> start_task_;
  std::string status_message_;
  std::mutex mutex_;
  bool done_ = false;  // finished, or the task started (or could not)
};

}  // namespace mcpread::server
