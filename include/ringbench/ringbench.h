/*
 * ringbench/ringbench.h — the whole public interface of the ringbench library in one
 * include: the version macros (ringbench/version.h), the error convention
 * (ringbench/error.h), the hashes (ringbench/hash.h) and the ring interface
 * (ringbench/ring.h). Link with `pkg-config --libs ringbench` or, in CMake,
 * find_package(ringbench) and target ringbench::ringbench.
 */
#ifndef RINGBENCH_RINGBENCH_H
#define RINGBENCH_RINGBENCH_H

#include "ringbench/error.h"
#include "ringbench/hash.h"
#include "ringbench/ring.h"
#include "ringbench/utf8.h"
#include "ringbench/version.h"

#endif
