// Route table included by the front controller; it has no opening tag
// because the loader evaluates it inside its own PHP block.
$router->get('/', function ($request) {
    return view('home', ['user' => $request->user()]);
});

$router->post('/login', function ($request) use ($auth) {
    if (!isset($request->input['email'])) {
        throw new ValidationException('email is required');
    }
    $user = $auth->attempt($request->input['email'], $request->input['password']);
    if ($user === null) {
        return null;
    }
    return redirect('/dashboard');
});

foreach ($plugins as $name => $plugin) {
    $router->mount('/' . $name, $plugin->routes());
}

foreach ($redirects as [$from, $to]) {
    $router->get($from, fn () => redirect($to));
}
