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
  Answer(std::shared_ptr<ResponseSink> sink, Headers headers)
      : sink_(std::move(sink)), headers_(std::move(headers)) {}
  void reply(std::string message, bool final);

  // A protocol::Reply that feeds a new Answer.
  static protocol::Reply to(std::shared_ptr<ResponseSink> sink, Headers headers = {});

 private:
  std::mutex mutex_;
  std::shared_ptr<ResponseSink> sink_;
  Headers headers_;
  bool streaming_ = false;
  bool done_ = false;
};

}  // namespace mcpread::server::http
