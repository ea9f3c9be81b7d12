// OpenBLAS (Debian's libopenblas-dev): CBLAS, and the LAPACK routines we call, declared here
// because Debian ships no lapacke.h with it (Fortran calling convention: all by pointer).
#include <cblas.h>

void dgels_(const char *trans, const int *m, const int *n, const int *nrhs, double *a, const int *lda,
            double *b, const int *ldb, double *work, const int *lwork, int *info);

void dgeqrf_(const int *m, const int *n, double *a, const int *lda, double *tau, double *work, const int *lwork, int *info);
void dormqr_(const char *side, const char *trans, const int *m, const int *n, const int *k, double *a, const int *lda,
             double *tau, double *c, const int *ldc, double *work, const int *lwork, int *info);
void dtrtrs_(const char *uplo, const char *trans, const char *diag, const int *n, const int *nrhs, double *a, const int *lda,
             double *b, const int *ldb, int *info);
double dlamch_(const char *cmach);

char *openblas_get_corename(void);
void openblas_set_num_threads(int num_threads);
int openblas_get_num_threads(void);
/* Joins the thread pool OpenBLAS started when it was loaded (exported by the pthread build). */
int blas_thread_shutdown_(void);
