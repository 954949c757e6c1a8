// File: sched/plugins/node_resources_balanced_allocation/balanced_allocation.cc
//
// BalancedAllocationScore is inline in the header (it runs per node of a scan).
#include "sched/plugins/node_resources_balanced_allocation/balanced_allocation.h"
