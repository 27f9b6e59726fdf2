//===- BackendRefusal.cpp - cuDNN refusing a descriptor, told apart -------===//

#include "graph/BackendRefusal.h"

bool cmrt::graph::isBackendRefusal(const std::string &message) {
  return message.find("CUDNN_STATUS_NOT_SUPPORTED") != std::string::npos;
}
