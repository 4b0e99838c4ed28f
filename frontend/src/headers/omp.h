/* kivl's <omp.h>: the OpenMP runtime functions a CUDA program's host code calls. The host side
 * is not verified (and compiled without -fopenmp, so its pragmas are ignored): declarations
 * are all it needs. */
#ifndef KIVL_OMP_H
#define KIVL_OMP_H
extern "C" {
int omp_get_thread_num(void);
int omp_get_num_threads(void);
int omp_get_max_threads(void);
int omp_get_num_procs(void);
void omp_set_num_threads(int);
double omp_get_wtime(void);
}
#endif
