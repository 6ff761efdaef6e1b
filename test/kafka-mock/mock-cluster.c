/*
 * A Kafka-protocol cluster for tests: librdkafka's mock cluster with one broker.
 * Usage: kafka-mock-cluster [topic[:partitions] ...]   (partitions default to 3)
 * Prints the bootstrap address on one stdout line, then runs until stdin closes or SIGTERM/SIGINT,
 * so the cluster dies with the test process that spawned it. Lines on stdin: "down" takes the
 * broker down (connections closed, new ones refused: a killed broker whose log survives), "up"
 * brings it back; each is answered "ok <command>" on stdout. With KAFKA_MOCK_TRACK_GROUPS=1 in the
 * environment the cluster remembers every consumer group a client ever joined or committed for, and
 * "groups" answers "ok groups <name> <name> ..." (the mock has no ListGroups API of its own).
 */
#include <errno.h>
#include <pthread.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

static volatile sig_atomic_t stopping = 0;

#define MAX_GROUPS 512
static char *groups[MAX_GROUPS];
static int group_count = 0;
static pthread_mutex_t groups_lock = PTHREAD_MUTEX_INITIALIZER;

/* The mock's debug log names a group as "consumer group NAME " or "for group NAME:". */
static void remember_group(const char *line) {
  static const char *markers[] = {"consumer group ", "for group "};
  for (size_t m = 0; m < sizeof markers / sizeof *markers; m++) {
    const char *at = strstr(line, markers[m]);
    if (!at) continue;
    at += strlen(markers[m]);
    size_t len = strcspn(at, " :,\n");
    if (len == 0 || len > 250 || (len == 6 && strncmp(at, "member", 6) == 0)) return;
    pthread_mutex_lock(&groups_lock);
    int known = 0;
    for (int i = 0; i < group_count && !known; i++)
      known = strlen(groups[i]) == len && strncmp(groups[i], at, len) == 0;
    if (!known && group_count < MAX_GROUPS) groups[group_count++] = strndup(at, len);
    pthread_mutex_unlock(&groups_lock);
    return;
  }
}

static void on_log(const rd_kafka_t *rk, int level, const char *fac, const char *buf) {
  (void)rk;
  if (level <= 3) fprintf(stderr, "%s: %s\n", fac, buf);
  else remember_group(buf);
}

static void on_signal(int sig) {
  (void)sig;
  stopping = 1;
}

int main(int argc, char **argv) {
  char errstr[512];
  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  const char *track = getenv("KAFKA_MOCK_TRACK_GROUPS");
  int tracking = track && strcmp(track, "1") == 0;
  const char *conf_key = tracking ? "debug" : "log_level", *conf_value = tracking ? "mock" : "3";
  if (rd_kafka_conf_set(conf, conf_key, conf_value, errstr, sizeof errstr) != RD_KAFKA_CONF_OK) {
    fprintf(stderr, "conf: %s\n", errstr);
    return 1;
  }
  if (tracking) rd_kafka_conf_set_log_cb(conf, on_log);
  /* The mock cluster lives inside a client handle; this one is never used to produce. */
  rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
  if (!rk) {
    fprintf(stderr, "rd_kafka_new: %s\n", errstr);
    return 1;
  }
  rd_kafka_mock_cluster_t *mcluster = rd_kafka_mock_cluster_new(rk, 1);
  if (!mcluster) {
    fprintf(stderr, "rd_kafka_mock_cluster_new failed\n");
    return 1;
  }

  for (int i = 1; i < argc; i++) {
    char name[256];
    int partitions = 3;
    snprintf(name, sizeof name, "%s", argv[i]);
    char *colon = strrchr(name, ':');
    if (colon) {
      *colon = '\0';
      partitions = atoi(colon + 1);
      if (partitions < 1) {
        fprintf(stderr, "bad partition count in \"%s\"\n", argv[i]);
        return 2;
      }
    }
    rd_kafka_resp_err_t err = rd_kafka_mock_topic_create(mcluster, name, partitions, 1);
    if (err) {
      fprintf(stderr, "topic %s: %s\n", name, rd_kafka_err2str(err));
      return 1;
    }
  }

  signal(SIGTERM, on_signal);
  signal(SIGINT, on_signal);
  signal(SIGPIPE, SIG_IGN);

  printf("%s\n", rd_kafka_mock_cluster_bootstraps(mcluster));
  fflush(stdout);

  struct pollfd in = {.fd = STDIN_FILENO, .events = POLLIN};
  char buf[256];
  char line[256];
  size_t used = 0;
  while (!stopping) {
    int n = poll(&in, 1, 200);
    if (n < 0 && errno != EINTR) break;
    if (n > 0) {
      ssize_t r = read(STDIN_FILENO, buf, sizeof buf);
      if (r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN)) break;
      for (ssize_t i = 0; i < r; i++) {
        if (buf[i] != '\n') {
          if (used < sizeof line - 1) line[used++] = buf[i];
          continue;
        }
        line[used] = '\0';
        used = 0;
        rd_kafka_resp_err_t err = RD_KAFKA_RESP_ERR_NO_ERROR;
        if (strcmp(line, "down") == 0) err = rd_kafka_mock_broker_set_down(mcluster, 1);
        else if (strcmp(line, "up") == 0) err = rd_kafka_mock_broker_set_up(mcluster, 1);
        else if (strcmp(line, "groups") == 0) {
          pthread_mutex_lock(&groups_lock);
          printf("ok groups");
          for (int g = 0; g < group_count; g++) printf(" %s", groups[g]);
          printf("\n");
          pthread_mutex_unlock(&groups_lock);
          fflush(stdout);
          continue;
        }
        else continue;
        printf("%s %s\n", err ? "error" : "ok", line);
        fflush(stdout);
      }
    }
  }

  rd_kafka_mock_cluster_destroy(mcluster);
  rd_kafka_destroy(rk);
  return 0;
}
