package demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

public class App {
    private final List<String> names = new ArrayList<>();
    private static int counter = 0;

    public App(String first) {
        names.add(first);
    }

    public void add(String name) {
        if (name == null) {
            throw new IllegalArgumentException("name");
        }
        names.add(name);
        counter++;
    }

    public int size() {
        return names.size();
    }

    static String join(List<String> xs, String sep) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < xs.size(); i++) {
            if (i > 0) {
                sb.append(sep);
            }
            sb.append(xs.get(i));
        }
        return sb.toString();
    }

    public static void main(String[] args) {
        App app = new App("a");
        app.add("b");
        System.out.println(join(app.names, ", "));
        System.out.println(app.size());
        try {
            Map<String, Integer> m = Map.of("x", 1);
            System.err.println(m.get("x"));
        } catch (Exception e) {
            e.printStackTrace();
        }
    }
}
