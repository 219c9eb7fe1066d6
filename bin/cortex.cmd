@echo off
rem Starts cortex from this checkout on Windows: builds app\cli\target\cortex.jar with Maven when it is
rem missing (output on stderr; run "bin\cortex.cmd --version" once before wiring a client), then
rem runs it on CORTEX_JAVA, else %JAVA_HOME%\bin\java.exe, else the java on the PATH (17 or newer).
rem CORTEX_JAVA_OPTS adds JVM options to the short-lived ones of bin\jvm-options. Unlike bin/cortex
rem it does not rebuild a jar older than the sources: delete app\cli\target\cortex.jar, or run
rem Maven, after changing them.
setlocal
set "_cortex_root=%~dp0.."
set "_cortex_jar=%_cortex_root%\app\cli\target\cortex.jar"
set "CORTEX_LAUNCHER=%~f0"
if exist "%_cortex_jar%" goto run
where mvn >nul 2>nul || (echo cortex: Maven ^(mvn^) is needed to build cortex 1>&2 & exit /b 2)
echo cortex: building %_cortex_jar% with Maven (once; a few minutes) ... 1>&2
pushd "%_cortex_root%"
call mvn -q -B -ntp -DskipTests -Dspotless.check.skip=true -pl app/cli -am install 1>&2
set _cortex_build=%ERRORLEVEL%
popd
if not "%_cortex_build%"=="0" exit /b 2
:run
set "_cortex_java=java"
if defined JAVA_HOME set "_cortex_java=%JAVA_HOME%\bin\java.exe"
if defined CORTEX_JAVA set "_cortex_java=%CORTEX_JAVA%"
set _cortex_opts=
for /f "usebackq eol=# tokens=1,* delims==" %%a in ("%_cortex_root%\bin\jvm-options") do if "%%a"=="short-lived" set "_cortex_opts=%%b"
if not defined _cortex_opts goto nooptions
"%_cortex_java%" %_cortex_opts% %CORTEX_JAVA_OPTS% -jar "%_cortex_jar%" %*
exit /b %ERRORLEVEL%
:nooptions
echo cortex: %_cortex_root%\bin\jvm-options has no line short-lived=: restore it from the repository 1>&2
exit /b 2
