package org.ocelotl.format.otf2;

/**
 * Event record kinds of OTF2 3.0 (ids 10–84): their names as otf2-print shows them, and which of
 * them are "singletons". A record normally starts with its length (so unknown attributes can be
 * skipped), except a record made of exactly one compressed integer: that one has no length byte
 * and is skipped by reading the integer.
 */
final class Otf2Records {
  static final int TIMESTAMP = 5;
  static final int ATTRIBUTE_LIST = 6;
  static final int BUFFER_FLUSH = 10;
  static final int ENTER = 12;
  static final int LEAVE = 13;
  static final int MPI_SEND = 14;
  static final int MPI_ISEND = 15;
  static final int MPI_RECV = 18;
  static final int MPI_IRECV = 19;
  static final int MPI_COLLECTIVE_BEGIN = 22;
  static final int MPI_COLLECTIVE_END = 23;
  static final int METRIC = 31;

  private static final String[] NAMES = new String[85];
  private static final boolean[] SINGLETON = new boolean[85];

  static {
    String[] names = {
      "BUFFER_FLUSH", "MEASUREMENT_ON_OFF", "ENTER", "LEAVE", "MPI_SEND", "MPI_ISEND",
      "MPI_ISEND_COMPLETE", "MPI_IRECV_REQUEST", "MPI_RECV", "MPI_IRECV", "MPI_REQUEST_TEST",
      "MPI_REQUEST_CANCELLED", "MPI_COLLECTIVE_BEGIN", "MPI_COLLECTIVE_END", "OMP_FORK",
      "OMP_JOIN", "OMP_ACQUIRE_LOCK", "OMP_RELEASE_LOCK", "OMP_TASK_CREATE", "OMP_TASK_SWITCH",
      "OMP_TASK_COMPLETE", "METRIC", "PARAMETER_STRING", "PARAMETER_INT",
      "PARAMETER_UNSIGNED_INT", "RMA_WIN_CREATE", "RMA_WIN_DESTROY", "RMA_COLLECTIVE_BEGIN",
      "RMA_COLLECTIVE_END", "RMA_GROUP_SYNC", "RMA_REQUEST_LOCK", "RMA_ACQUIRE_LOCK",
      "RMA_TRY_LOCK", "RMA_RELEASE_LOCK", "RMA_SYNC", "RMA_WAIT_CHANGE", "RMA_PUT", "RMA_GET",
      "RMA_ATOMIC", "RMA_OP_COMPLETE_BLOCKING", "RMA_OP_COMPLETE_NON_BLOCKING", "RMA_OP_TEST",
      "RMA_OP_COMPLETE_REMOTE", "THREAD_FORK", "THREAD_JOIN", "THREAD_TEAM_BEGIN",
      "THREAD_TEAM_END", "THREAD_ACQUIRE_LOCK", "THREAD_RELEASE_LOCK", "THREAD_TASK_CREATE",
      "THREAD_TASK_SWITCH", "THREAD_TASK_COMPLETE", "THREAD_CREATE", "THREAD_BEGIN",
      "THREAD_WAIT", "THREAD_END", "CALLING_CONTEXT_ENTER", "CALLING_CONTEXT_LEAVE",
      "CALLING_CONTEXT_SAMPLE", "IO_CREATE_HANDLE", "IO_DESTROY_HANDLE", "IO_DUPLICATE_HANDLE",
      "IO_SEEK", "IO_CHANGE_STATUS_FLAGS", "IO_DELETE_FILE", "IO_OPERATION_BEGIN",
      "IO_OPERATION_TEST", "IO_OPERATION_ISSUED", "IO_OPERATION_COMPLETE",
      "IO_OPERATION_CANCELLED", "IO_ACQUIRE_LOCK", "IO_RELEASE_LOCK", "IO_TRY_LOCK",
      "PROGRAM_BEGIN", "PROGRAM_END"};
    System.arraycopy(names, 0, NAMES, BUFFER_FLUSH, names.length);
    // Exactly one attribute, of a compressed integer type (a reference, an id or a count).
    for (int kind : new int[] {ENTER, LEAVE, 16, 17, 20, 21, 24, 28, 29, 30, 35, 36, 45, 55, 56,
        67, 70, 84}) {
      SINGLETON[kind] = true;
    }
  }

  private Otf2Records() {}

  /** The record's name, or null for a kind this version of OTF2 does not define. */
  static String name(int kind) {
    return kind < NAMES.length ? NAMES[kind] : null;
  }

  static boolean singleton(int kind) {
    return kind < SINGLETON.length && SINGLETON[kind];
  }

  /** OTF2_CollectiveOp, as otf2-print names it. */
  static String collectiveName(int op) {
    String[] names = {"BARRIER", "BCAST", "GATHER", "GATHERV", "SCATTER", "SCATTERV",
        "ALLGATHER", "ALLGATHERV", "ALLTOALL", "ALLTOALLV", "ALLTOALLW", "ALLREDUCE", "REDUCE",
        "REDUCE_SCATTER", "SCAN", "EXSCAN", "REDUCE_SCATTER_BLOCK", "CREATE_HANDLE",
        "DESTROY_HANDLE", "ALLOCATE", "DEALLOCATE", "CREATE_HANDLE_AND_ALLOCATE",
        "DESTROY_HANDLE_AND_DEALLOCATE"};
    return op < names.length ? names[op] : "COLLECTIVE_" + op;
  }
}
