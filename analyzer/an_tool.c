/* SPDX-License-Identifier: MIT */
#include "an_tool.h"

const char *an_tool = "hipgrain report";
