#pragma once
// A cancellation flag shared between the request that may be cancelled and the reader doing the
// work. Readers poll it in their scanning loops; a default-constructed token never fires.
#include <atomic>
#include <memory>

namespace mcpread::readers {

class CancelToken {
 public:
  CancelToken() = default;
  static CancelToken make() {
    CancelToken t;
    t.flag_ = std::make_shared<std::atomic<bool>>(false);
    return t;
  }
  // Shares a flag owned by someone else (the protocol layer's per-request flag).
  static CancelToken wrap(std::shared_ptr<std::atomic<bool>> flag) {
    CancelToken t;
    t.flag_ = std::move(flag);
    return t;
  }
  void cancel() const {
    if (flag_) flag_->store(true, std::memory_order_relaxed);
  }
  [[nodiscard]] bool cancelled() const {
    return flag_ && flag_->load(std::memory_order_relaxed);
  }

 private:
  std::shared_ptr<std::atomic<bool>> flag_;
};

}  // namespace mcpread::readers
