package org.ocelotl.server;

import com.sun.net.httpserver.Headers;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Who may talk to the server: a request must name a Host the server answers to (a page of
 * another site that resolves its own name to 127.0.0.1 — DNS rebinding — sends its own name)
 * and carry the per-run token, in the query ({@code token=}), in the {@value #HEADER} header,
 * or in the cookie the page sets when it is opened with the token.
 */
final class Access {
  static final String HEADER = "X-Ocelotl-Token";

  private final String token;
  private final byte[] tokenBytes;
  private final Set<String> hosts;
  private final String cookieName;

  private Access(String token, Set<String> hosts, int port) {
    this.token = token;
    this.tokenBytes = token.getBytes(StandardCharsets.US_ASCII);
    this.hosts = hosts;
    // Cookies are shared by every port of a host: one name per port keeps two servers apart.
    this.cookieName = "ocelotl-" + port;
  }

  /**
   * @param bind the address the server listens on; a wildcard address (the user asked to be
   *             reachable from elsewhere) accepts any Host, the token still guards every request
   */
  static Access forServer(String token, InetAddress bind, int port) {
    if (bind.isAnyLocalAddress()) {
      return new Access(token, Set.of(), port);
    }
    Set<String> hosts = new TreeSet<>();
    for (String name : List.of("localhost", "127.0.0.1", "[::1]", literal(bind))) {
      hosts.add(name + ":" + port);
    }
    return new Access(token, Set.copyOf(hosts), port);
  }

  /** What {@link #newToken} draws: 43 URL-safe base64 characters. */
  static final java.util.regex.Pattern TOKEN = java.util.regex.Pattern.compile("[A-Za-z0-9_-]{43}");

  /** 32 random bytes, URL-safe: as hard to guess as a strong key, and pasteable. */
  static String newToken() {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private static String literal(InetAddress address) {
    String host = address.getHostAddress();
    return host.contains(":") ? "[" + host.replaceAll("%.*$", "") + "]" : host;
  }

  String token() {
    return token;
  }

  String cookieName() {
    return cookieName;
  }

  /** The Set-Cookie value that lets the page's own requests carry the token. */
  String cookie() {
    return cookieName + "=" + token + "; Path=/; HttpOnly; SameSite=Strict";
  }

  boolean hostAllowed(Headers headers) {
    if (hosts.isEmpty()) {
      return true;
    }
    String host = headers.getFirst("Host");
    return host != null && hosts.contains(host.toLowerCase(Locale.ROOT));
  }

  /** A request from a page of another origin (its Origin header names another host) is refused. */
  boolean originAllowed(Headers headers) {
    String origin = headers.getFirst("Origin");
    if (origin == null || hosts.isEmpty()) {
      return true;
    }
    try {
      URI uri = URI.create(origin);
      return uri.getRawAuthority() != null && hosts.contains(uri.getRawAuthority().toLowerCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  boolean tokenPresented(String queryToken, Headers headers) {
    return matches(queryToken) || matches(headers.getFirst(HEADER)) || matches(cookieToken(headers));
  }

  private String cookieToken(Headers headers) {
    List<String> cookies = headers.get("Cookie");
    if (cookies == null) {
      return null;
    }
    for (String line : cookies) {
      for (String pair : line.split(";")) {
        String[] kv = pair.trim().split("=", 2);
        if (kv.length == 2 && kv[0].equals(cookieName)) {
          return kv[1];
        }
      }
    }
    return null;
  }

  // Constant time, so that response timing tells nothing about a guess.
  private boolean matches(String candidate) {
    return candidate != null
        && MessageDigest.isEqual(candidate.getBytes(StandardCharsets.US_ASCII), tokenBytes);
  }
}
