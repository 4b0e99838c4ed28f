//pass
//args: --blockDim=64 --gridDim=4
// Cooperative groups at block level (<cooperative_groups.h>, the `cg` alias): a block's
// sync() is __syncthreads, its thread_rank() the linear thread index, size() the block size,
// and a tile's meta_group_rank() and thread_rank() split the block into tiles of 32.
// Twin: cg_block_race.cu.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void shift(int *out) {
  __shared__ int t[64];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  unsigned r = block.thread_rank();
  __assert(r == tile.meta_group_rank() * 32 + tile.thread_rank());
  t[r] = r;
  block.sync();
  out[block.group_index().x * block.size() + r] = t[(r + 1) % block.size()];
}
