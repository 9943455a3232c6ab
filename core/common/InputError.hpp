#pragma once

// InputError is part of the public API (podscope/error.hpp): the API throws what the core does.
#include <podscope/error.hpp>
