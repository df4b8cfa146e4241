#pragma once
// Turns the protocol core's replies to one request into one HTTP answer: a JSON body when the
// response comes alone, an event stream when notifications (progress, log messages) come first.
// Every message of the exchange goes on that one answer, never on another stream.
#include "response_sink.hpp"

#include "mcpread/protocol/server_handler.hpp"

#include <memory>
#include <mutex>

namespace mcpread::server::http {

class Answer {
 public:
  // How a JSON-RPC error alone in the body sets the HTTP status. The session era answers 200
  // with the error in the body; protocol 2026-07-28 gives some errors their own status wherever
  // they arise: 404 for -32601 (method not found), 400 for -32020, -32021 and -32022.
  enum class ErrorStatus { always_200, by_code };

  Answer(std::shared_ptr<ResponseSink> sink, Headers headers, ErrorStatus errors = ErrorStatus::always_200)
      : sink_(std::move(sink)), headers_(std::move(headers)), errors_(errors) {}
  void reply(std::string message, bool final);

  // A protocol::Reply that feeds a new Answer.
  static protocol::Reply to(std::shared_ptr<ResponseSink> sink, Headers headers = {},
                            ErrorStatus errors = ErrorStatus::always_200);

 private:
  std::mutex mutex_;
  std::shared_ptr<ResponseSink> sink_;
  Headers headers_;
  ErrorStatus errors_;
  bool streaming_ = false;
  bool done_ = false;
};

}  // namespace mcpread::server::http
