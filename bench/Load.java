import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A load on a running server (bench/load.sh): CLIENTS clients, each REQUESTS requests drawn with a
 * seed (lists, producers, breakpoint CSVs and overviews at random p of three models), every answer
 * required to be 200. Prints requests/s, median and p99 latency.
 * Usage: java bench/Load.java BASE_API_URL TOKEN TRACE_ID CLIENTS REQUESTS
 */
public class Load {
  public static void main(String[] args) throws Exception {
    String base = args[0];
    String token = args[1];
    String id = args[2];
    int clients = Integer.parseInt(args[3]);
    int perClient = Integer.parseInt(args[4]);
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    List<String> models = List.of("&slices=50", "&slices=30&aggregation=spatiotemporal", "&slices=80&view=stacked");
    for (String m : models) { // computed once, then kept: the load is on the server, not the engine
      get(http, base + "/overview?trace=" + id + m, token);
    }
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    List<Future<long[]>> results = new ArrayList<>();
    long started = System.nanoTime();
    for (int c = 0; c < clients; c++) {
      long seed = 1000 + c;
      results.add(pool.submit(() -> {
        Random random = new Random(seed);
        long[] latencies = new long[perClient];
        for (int r = 0; r < perClient; r++) {
          String path = switch (random.nextInt(5)) {
            case 0 -> "/traces";
            case 1 -> "/traces/" + id + "/producers";
            case 2 -> "/breakpoints?format=csv&trace=" + id + models.get(random.nextInt(models.size()));
            default -> "/overview?trace=" + id + models.get(random.nextInt(models.size())) + "&p=" + random.nextInt(100) / 100.0;
          };
          long t0 = System.nanoTime();
          get(http, base + path, token);
          latencies[r] = System.nanoTime() - t0;
        }
        return latencies;
      }));
    }
    long[] all = new long[clients * perClient];
    int k = 0;
    for (Future<long[]> f : results) {
      for (long latency : f.get()) {
        all[k++] = latency;
      }
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    pool.shutdown();
    Arrays.sort(all);
    System.out.printf("%d clients, %d requests in %.2f s: %.0f requests/s, median %.1f ms, p99 %.1f ms%n", clients,
        all.length, seconds, all.length / seconds, all[all.length / 2] / 1e6, all[all.length * 99 / 100] / 1e6);
  }

  static void get(HttpClient http, String url, String token) throws Exception {
    HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(url)).header("X-Ocelotl-Token", token).build(),
        HttpResponse.BodyHandlers.ofString());
    if (answer.statusCode() != 200) {
      throw new IllegalStateException(url + " → " + answer.statusCode() + " " + answer.body());
    }
  }
}
