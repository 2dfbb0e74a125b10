// Run: PAYMENT_SANDBOX_PUBLIC_KEY=webhook-public-key.pem java Handler.java
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public class Handler {
    static final String SECRET = System.getenv("PAYMENT_SANDBOX_WEBHOOK_SECRET"); // only with --webhook-signing hmac
    static final Set<String> HANDLED = ConcurrentHashMap.newKeySet(); // (ll_transaction_id, status) pairs already processed: your database in production
    static final Pattern FIELD = Pattern.compile(
            "\"(ll_transaction_id|merchant_transaction_id|original_transaction_id|payment_status|refund_status)\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
    static final Pattern REFUND_AMOUNT = Pattern.compile("\"refund_amount\"\\s*:\\s*(\\d+)");
    static final Pattern ESCAPE = Pattern.compile("\\\\u([0-9a-fA-F]{4})");
    // merchant_transaction_id -> {payment_status, refunded_amount}: your orders table
    static final Map<String, String> STATUS = new ConcurrentHashMap<>();
    static final Map<String, Long> REFUNDED = new ConcurrentHashMap<>();

    /** A JSON string's text as written (\\uXXXX escapes decoded). */
    static String unescape(String s) {
        return ESCAPE.matcher(s).replaceAll(m -> Matcher.quoteReplacement(String.valueOf((char) Integer.parseInt(m.group(1), 16))));
    }

    /** Applies a verified event once: a known outcome sets the order's status, a refund adds its amount. */
    static void apply(Map<String, String> fields, String raw) {
        if (fields.containsKey("refund_status")) {
            Matcher amount = REFUND_AMOUNT.matcher(raw);
            if (amount.find()) REFUNDED.merge(fields.get("original_transaction_id"), Long.parseLong(amount.group(1)), Long::sum);
        }
        String status = fields.get("payment_status");
        if ("SUCCEEDED".equals(status) || "FAILED".equals(status)) STATUS.put(fields.get("merchant_transaction_id"), status);
        // any other status (a later version may add some) is acknowledged and not taken as paid
    }

    /** What this build believes, for check-webhooks --state-url http://127.0.0.1:$PORT/orders */
    static String orderJson(String id) {
        String status = STATUS.get(id);
        return "{\"payment_status\":" + (status == null ? "null" : "\"" + status + "\"") + ",\"refunded_amount\":" + REFUNDED.getOrDefault(id, 0L) + "}";
    }
    static PublicKey publicKey;

    static boolean verified(byte[] raw, String signature) {
        try {
            if (SECRET != null) { // HMAC variant: hex HMAC-SHA256 of the raw body
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
                byte[] expected = HexFormat.of().formatHex(mac.doFinal(raw)).getBytes(StandardCharsets.UTF_8);
                return MessageDigest.isEqual(expected, signature.getBytes(StandardCharsets.UTF_8));
            }
            Signature rsa = Signature.getInstance("SHA256withRSA"); // RSA-SHA256 (PKCS #1 v1.5), base64
            rsa.initVerify(publicKey);
            rsa.update(raw);
            return rsa.verify(Base64.getDecoder().decode(signature));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
    }

    static void handle(HttpExchange exchange) throws IOException {
        byte[] raw = exchange.getRequestBody().readAllBytes(); // the bytes received: never verify re-encoded JSON
        String signature = exchange.getRequestHeaders().getFirst("signature");
        String path = exchange.getRequestURI().getPath();
        if (exchange.getRequestMethod().equals("GET") && path.startsWith("/orders/")) {
            byte[] body = orderJson(path.substring("/orders/".length())).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
        } else if (!exchange.getRequestMethod().equals("POST") || !exchange.getRequestURI().getPath().equals("/webhooks")) {
            exchange.sendResponseHeaders(404, -1);
        } else if (signature == null || !verified(raw, signature)) {
            exchange.sendResponseHeaders(401, -1);
        } else {
            // The JDK has no JSON parser: read the fields shown here, use Jackson or Gson for the rest.
            Map<String, String> fields = new HashMap<>();
            String text = new String(raw, StandardCharsets.UTF_8);
            Matcher m = FIELD.matcher(text);
            while (m.find()) fields.putIfAbsent(m.group(1), unescape(m.group(2)));
            String id = fields.get("ll_transaction_id");
            String status = fields.getOrDefault("payment_status", fields.get("refund_status"));
            // One transaction can move PROCESSING -> SUCCEEDED: a repeat is the same id with the same status.
            if (!HANDLED.add(id + " " + status)) {
                System.out.println("already handled: " + id + " " + status);
            } else {
                apply(fields, text);
                System.out.println("webhook verified: " + status + " " + id + " (" + fields.get("merchant_transaction_id") + ")");
            }
            byte[] body = "{\"code\":\"200\",\"message\":\"SUCCESS\"}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
        }
        exchange.close();
    }

    public static void main(String[] args) throws Exception {
        if (SECRET == null) {
            String pem = Files.readString(Path.of(System.getenv("PAYMENT_SANDBOX_PUBLIC_KEY")));
            byte[] der = Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
            publicKey = KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der));
        }
        int port = Integer.parseInt(System.getenv().getOrDefault("PORT", "3000"));
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.createContext("/", Handler::handle);
        server.start();
        System.out.println("webhook handler on http://127.0.0.1:" + port + "/webhooks");
    }
}
