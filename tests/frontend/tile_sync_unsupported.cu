//xfail:unsupported
//args: --blockDim=64 --gridDim=1
//error-line: 14
// A cooperative-groups tile's sync() is warp-level: a located `unsupported` error at the call
// (kivl's <cooperative_groups.h>), never a call without effect. The tile's ranks are exact.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void k(int *out) {
  __shared__ int t[64];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  t[block.thread_rank()] = tile.thread_rank();
  tile.sync();
  out[block.thread_rank()] = t[block.thread_rank() ^ 1];
}
