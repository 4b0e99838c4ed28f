//xfail:race
//args: --blockDim=64 --gridDim=4
//error-lines: 15, 16
// cg_block.cu without the block's sync(): the write of an element and the neighbour's read
// of it race.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void shift(int *out) {
  __shared__ int t[64];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  unsigned r = block.thread_rank();
  __assert(r == tile.meta_group_rank() * 32 + tile.thread_rank());
  t[r] = r;
  out[block.group_index().x * block.size() + r] = t[(r + 1) % block.size()];
}
