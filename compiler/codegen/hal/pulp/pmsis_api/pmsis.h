/* The PMSIS API surface the pulp HAL (hal/hal.c) uses, declared for the compile check
 * (`make -f Makefile.check`): exactly these functions, types and constants, nothing else, so
 * that generated code compiles with -Wall -Werror without an SDK and any use of PMSIS beyond
 * them is a compile error. The signatures are those of the public PMSIS headers of the
 * GreenWaves GAP SDK (github.com/GreenWaves-Technologies/gap_sdk; paths below are in that
 * repository); the structs are opaque stand-ins of the SDK's (only `type` of pi_fs_conf is
 * set by the HAL). A real build includes the SDK's own pmsis.h instead (Makefile). */
#ifndef ES_PMSIS_API_CHECK_H
#define ES_PMSIS_API_CHECK_H
#include <stddef.h>
#include <stdint.h>

/* rtos/pmsis/pmsis_api/include/pmsis/device.h (struct pi_device: pmsis/pmsis_types.h) */
struct pi_device { void *opaque[8]; };
void pi_open_from_conf(struct pi_device *device, void *conf);

/* rtos/pmsis/pmsis_api/include/pmsis/cluster/cluster_sync/fc_to_cl_delegate.h */
struct pi_cluster_conf { int id; void *opaque[8]; };
struct pi_cluster_task { void *opaque[16]; };
void pi_cluster_conf_init(struct pi_cluster_conf *conf);
int pi_cluster_open(struct pi_device *device);
struct pi_cluster_task *pi_cluster_task(struct pi_cluster_task *task, void (*entry)(void *), void *arg);
int pi_cluster_send_task_to_cl(struct pi_device *device, struct pi_cluster_task *cluster_task);

/* rtos/pmsis/pmsis_api/include/pmsis/cluster/cluster_team/cl_team.h */
void pi_cl_team_fork(int nb_cores, void (*entry)(void *), void *arg);

/* rtos/pmsis/pmsis_api/include/pmsis/cluster/cl_pmsis_api.h (core identification) */
uint32_t pi_core_id(void);

/* rtos/pmsis/pmsis_api/include/pmsis/cluster/dma/cl_dma.h */
typedef enum { PI_CL_DMA_DIR_LOC2EXT = 0, PI_CL_DMA_DIR_EXT2LOC = 1 } pi_cl_dma_dir_e;
typedef struct pi_cl_dma_cmd_s { int id; void *opaque[4]; } pi_cl_dma_cmd_t;
void pi_cl_dma_cmd(uint32_t ext, uint32_t loc, uint32_t size, pi_cl_dma_dir_e dir, pi_cl_dma_cmd_t *cmd);
void pi_cl_dma_cmd_2d(uint32_t ext, uint32_t loc, uint32_t size, uint32_t stride, uint32_t length, pi_cl_dma_dir_e dir,
                      pi_cl_dma_cmd_t *cmd);
void pi_cl_dma_cmd_wait(pi_cl_dma_cmd_t *cmd);

/* rtos/pmsis/pmsis_api/include/pmsis/cluster/cl_malloc.h */
void *pi_cl_l1_malloc(struct pi_device *device, uint32_t size);

/* rtos/pmsis/pmsis_api/include/pmsis/rtos/malloc/l2_malloc.h */
void *pi_l2_malloc(int size);

/* rtos/pmsis/pmsis_bsp/include/bsp/ram.h and bsp/ram/hyperram.h */
struct pi_hyperram_conf { void *opaque[8]; };
typedef struct pi_cl_ram_req_s { void *opaque[16]; } pi_cl_ram_req_t;
void pi_hyperram_conf_init(struct pi_hyperram_conf *conf);
int32_t pi_ram_open(struct pi_device *device);
int32_t pi_ram_alloc(struct pi_device *device, uint32_t *addr, uint32_t size);
void pi_ram_read(struct pi_device *device, uint32_t pi_ram_addr, void *addr, uint32_t size);
void pi_ram_write(struct pi_device *device, uint32_t pi_ram_addr, void *addr, uint32_t size);
void pi_cl_ram_read(struct pi_device *device, uint32_t pi_ram_addr, void *addr, uint32_t size, pi_cl_ram_req_t *req);
void pi_cl_ram_read_wait(pi_cl_ram_req_t *req);
void pi_cl_ram_write(struct pi_device *device, uint32_t pi_ram_addr, void *addr, uint32_t size, pi_cl_ram_req_t *req);
void pi_cl_ram_write_wait(pi_cl_ram_req_t *req);

/* rtos/pmsis/pmsis_bsp/include/bsp/fs.h */
typedef enum { PI_FS_READ_ONLY = 0, PI_FS_HOST = 1, PI_FS_LFS = 2 } pi_fs_type_e;
typedef enum { PI_FS_FLAGS_READ = 0, PI_FS_FLAGS_WRITE = 1, PI_FS_FLAGS_APPEND = 2 } pi_fs_flags_e;
struct pi_fs_conf { pi_fs_type_e type; void *opaque[8]; };
typedef struct pi_fs_file_s pi_fs_file_t;
void pi_fs_conf_init(struct pi_fs_conf *conf);
int32_t pi_fs_mount(struct pi_device *device);
pi_fs_file_t *pi_fs_open(struct pi_device *device, const char *file, int flags);
int32_t pi_fs_read(pi_fs_file_t *file, void *buffer, uint32_t size);
int32_t pi_fs_seek(pi_fs_file_t *file, unsigned int offset);
void pi_fs_close(pi_fs_file_t *file);

/* rtos/pmsis/pmsis_api/include/pmsis/drivers/perf.h (PI_PERF_CYCLES: pmsis/chips/gap8/perf.h) */
#define PI_PERF_CYCLES 0
void pi_perf_conf(unsigned events);
void pi_perf_reset(void);
void pi_perf_start(void);
unsigned int pi_perf_read(int id);

/* rtos/pmsis/pmsis_api/include/pmsis/rtos/rtos.h */
void pmsis_exit(int err);

#endif
